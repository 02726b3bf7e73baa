"""``thirtyone arena``: duplicate schedule, safe play, statistics and ratings, files, determinism
across jobs and backends, failing bots, interruptions and one-line errors."""

from __future__ import annotations

import contextlib
import csv
import json
import math
import os
import socket
import sys
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from thirtyone.actions import Action
from thirtyone.actions import Pass
from thirtyone.arena import BackendError
from thirtyone.arena import GameResult
from thirtyone.arena import LocalBackend
from thirtyone.arena import backends as arena_backends
from thirtyone.arena import make_schedule
from thirtyone.arena import run_arena
from thirtyone.arena import summarize
from thirtyone.arena import wilson_interval
from thirtyone.arena.play import Task
from thirtyone.arena.play import play_game_safely
from thirtyone.arena.play import play_safely
from thirtyone.arena.play import play_task
from thirtyone.arena.report import SUMMARY_COLUMNS
from thirtyone.arena.run import InOrder
from thirtyone.arena.run import make_tasks
from thirtyone.arena.schedule import bot_seed
from thirtyone.arena.schedule import deal_seed
from thirtyone.arena.schedule import seating
from thirtyone.arena.stats import Z95
from thirtyone.arena.stats import Rating
from thirtyone.arena.stats import pooled_rating
from thirtyone.bots import BOTS
from thirtyone.bots import BasicBot
from thirtyone.cli import arena as cli_arena
from thirtyone.cli import main
from thirtyone.record import GameRecord
from thirtyone.rules import Rules
from thirtyone.totals import GameTotals
from thirtyone.totals import SeatTotals
from thirtyone.views import PlayerView

SCAT = Rules.preset("scat")


@pytest.fixture(autouse=True)
def _in_a_folder_of_its_own(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test runs in a folder of its own: a run without --out on the reference engine refuses the
    failed games' records an earlier run left in arena-failed/ (issue 42), and writes its own there."""
    monkeypatch.chdir(tmp_path)


# ---------------------------------------------------------------------------------------- helpers


def arena(tmp_path: Path, *args: str, name: str = "out") -> tuple[int, Path]:
    out = tmp_path / name
    return main(["arena", "--out", str(out), *args]), out


def read_csv(path: Path) -> list[dict[str, str]]:
    with path.open(newline="", encoding="utf-8") as file:
        return list(csv.DictReader(file))


def rigged(deal: int, rotation: int, bots: Sequence[str], places: Sequence[int]) -> GameResult:
    n = len(bots)
    return GameResult(
        deal=deal,
        rotation=rotation,
        seed=deal,
        bots=tuple(bots),
        places=tuple(places),
        winner=list(places).index(1),
        rounds=5,
        rounds_played=(5,) * n,
        lives_lost=tuple(place - 1 for place in places),
        knocks=(1,) * n,
        knocks_lost=tuple(int(place > 1) for place in places),
    )


class CrashingBot(BasicBot):
    """Plays like ``basic`` but raises in seat 0 from round 2 on."""

    name = "crasher"

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        if view.seat == 0 and view.round >= 2:
            raise RuntimeError("the crasher crashed")
        return super().choose(view, legal)


class CheatingBot(BasicBot):
    """Plays like ``basic`` but passes (not an action of draw mode) in seat 2."""

    name = "cheater"

    def choose(self, view: PlayerView, legal: Sequence[Action]) -> Action:
        return Pass() if view.seat == 2 else super().choose(view, legal)


# ---------------------------------------------------------------------------------------- schedule


def test_schedule_rounds_games_up_to_whole_deals():
    schedule = make_schedule(["basic", "random", "random"], 7)
    assert (schedule.deals, schedule.rotations, schedule.games, schedule.rounded_up) == (3, 3, 9, True)
    assert make_schedule(["basic", "random"], 8).rounded_up is False
    assert list(schedule.game_keys())[:4] == [(0, 0), (0, 1), (0, 2), (1, 0)]


def test_schedule_puts_every_entry_in_every_seat():
    bots = ["heuristic", "basic", "basic", "random"]
    for index, name in enumerate(bots):
        seats = {(index + rotation) % 4 for rotation in range(4)}
        assert seats == {0, 1, 2, 3}
        assert all(seating(bots, rotation)[(index + rotation) % 4] == name for rotation in range(4))
    for seat in range(4):
        assert Counter(seating(bots, rotation)[seat] for rotation in range(4)) == Counter(bots)


def test_every_bot_plays_every_seat_on_the_same_deals(tmp_path):
    status, out = arena(tmp_path, "--bots", "basic,random,basic", "--players", "3", "--games", "9", "--seed", "2")
    assert status == 0
    rows = read_csv(out / "games.csv")
    assert [(int(row["deal"]), int(row["rotation"])) for row in rows] == [(d, r) for d in range(3) for r in range(3)]
    for deal in range(3):
        games = [row for row in rows if row["deal"] == str(deal)]
        assert {row["seed"] for row in games} == {str(deal_seed(2, deal))}
        for seat in range(3):
            assert Counter(row[f"bot_{seat}"] for row in games) == Counter(["basic", "random", "basic"])


def test_rotations_of_a_deal_are_dealt_the_same_cards(monkeypatch):
    # Games that fail in round 1 keep the first deal in their records: compare it across rotations.
    monkeypatch.setitem(BOTS, "cheater", CheatingBot)
    results = play_task(Task(SCAT, ("cheater", "cheater", "cheater"), seed=11, start=0, stop=3))
    decks = {GameRecord.loads(result.failure.record).rounds[0].deck for result in results if result.failure}
    dealers = {GameRecord.loads(result.failure.record).first_dealer for result in results if result.failure}
    assert len(results) == 3
    assert len(decks) == 1
    assert len(dealers) == 1


def test_tasks_cover_the_schedule_in_order():
    schedule = make_schedule(["basic", "random"], 1000)
    for workers in (1, 2, 7):
        tasks = make_tasks(SCAT, schedule, 1, workers)
        keys = [key for task in tasks for key in task.keys]
        assert keys == list(schedule.game_keys())
        assert max(len(task) for task in tasks) <= 100


def test_in_order_passes_results_on_in_schedule_order():
    passed: list[tuple[int, int]] = []
    order = InOrder(2, lambda result: passed.append(result.key))
    results = [rigged(d, r, ["a", "b"], [1, 2]) for d in range(3) for r in range(2)]
    order.add([results[2], results[3]])
    assert passed == []
    order.add([results[0]])
    assert passed == [(0, 0)]
    order.add([results[1], results[5]])
    assert passed == [(0, 0), (0, 1), (1, 0), (1, 1)]
    order.flush()
    assert passed[-1] == (2, 1)
    assert order.received == 5


# ---------------------------------------------------------------------------------------- statistics


def test_wilson_interval_known_values():
    low, high = wilson_interval(8, 10)
    assert (round(low, 4), round(high, 4)) == (0.4902, 0.9433)
    assert wilson_interval(0, 10) == (0.0, pytest.approx(Z95**2 / (10 + Z95**2)))
    assert wilson_interval(10, 10) == (pytest.approx(10 / (10 + Z95**2)), 1.0)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    with pytest.raises(ValueError, match="impossible"):
        wilson_interval(3, 2)


@pytest.mark.parametrize(("wins", "games"), [(1, 4), (81, 263), (500, 2000), (1999, 2000)])
def test_wilson_interval_is_where_the_score_test_turns(wins, games):
    # The Wilson bounds are the p where |wins/games - p| = z * sqrt(p (1 - p) / games): check by bisection.
    def excess(p: float) -> float:
        return abs(wins / games - p) - Z95 * math.sqrt(p * (1 - p) / games)

    def root(lo: float, hi: float) -> float:
        for _ in range(200):
            mid = (lo + hi) / 2
            if (excess(lo) > 0) == (excess(mid) > 0):
                lo = mid
            else:
                hi = mid
        return (lo + hi) / 2

    low, high = wilson_interval(wins, games)
    assert low == pytest.approx(root(0.0, wins / games), abs=1e-9)
    assert high == pytest.approx(root(wins / games, 1.0), abs=1e-9)


def test_ratings_order_a_rigged_arena():
    bots = ["strong", "middle", "weak", "weak"]
    schedule = make_schedule(bots, 40)
    results = []
    for deal, rotation in schedule.game_keys():
        names = seating(bots, rotation)
        rank = {"strong": 1, "middle": 2}
        places = []
        weak_places = iter([3, 4])
        for name in names:
            places.append(rank[name] if name in rank else next(weak_places))
        results.append(rigged(deal, rotation, names, places))
    summary = summarize(schedule, reversed(results))  # any order in, (deal, rotation) order used
    assert [bot.name for bot in summary.bots] == ["strong", "middle", "weak"]
    strong, middle, weak = summary.bots
    assert strong.rating.ordinal > middle.rating.ordinal > weak.rating.ordinal
    assert strong.rating.ordinal == pytest.approx(strong.rating.mu - 3 * strong.rating.sigma)
    assert (strong.wins, strong.win_share, strong.fair_share, strong.mean_place) == (40, 1.0, 0.25, 1.0)
    assert (weak.seats, weak.fair_share, weak.mean_place, weak.wins) == (2, 0.5, 3.5, 0)
    assert weak.lives_per_round == pytest.approx((2 + 3) / 10)
    assert (middle.knocks, middle.knocks_lost, middle.knock_loss_share) == (40, 40, 1.0)
    assert summary.finished == 40
    assert not summary.partial


def test_the_arenas_counts_are_the_totals_simulate_keeps_of_its_games():
    # each game again on the engine, into simulate's totals (one per seating), summed per name
    rules, bots, seed = Rules.preset("namu"), ["heuristic", "basic", "random"], 3
    schedule = make_schedule(bots, 18)
    results, by_name = [], {name: SeatTotals(-1, name) for name in schedule.names}
    for deal, rotation in schedule.game_keys():
        names = seating(bots, rotation)
        bot_seeds = [bot_seed(seed, deal, rotation, seat) for seat in range(len(names))]
        game, failure = play_safely(rules, names, deal_seed(seed, deal), bot_seeds)
        assert failure is None
        totals = GameTotals(rules, tuple(names))
        totals.add_game(game)
        for name, bot_totals in totals.by_bot().items():
            by_name[name].merge(bot_totals)
        results.append(play_game_safely(rules, bots, seed, deal, rotation))
    for bot in summarize(schedule, results).bots:
        totals = by_name[bot.name]
        counts = (bot.wins, bot.seat_games, bot.place_sum, bot.rounds_played, bot.lives_lost, bot.knocks)
        assert counts == (
            totals.wins,
            totals.games,
            totals.place_sum,
            totals.rounds_played,
            totals.lives_lost,
            totals.knocks,
        )
        assert (bot.knocks_lost, bot.mean_place) == (totals.knocks_lost, totals.mean_place)
    assert sum(totals.knocks_lost for totals in by_name.values()) > 0


def lopsided(bots: Sequence[str], solo_wins: Sequence[bool], deals: int) -> list[GameResult]:
    """A rigged arena: the name that holds one seat (``bots[0]``) places 1st in the deals where
    ``solo_wins[deal % len(solo_wins)]``, else 2nd; the other seats take the other places in seat order."""
    n = len(bots)
    results = []
    for deal in range(deals):
        for rotation in range(n):
            names = seating(bots, rotation)
            solo = 1 if solo_wins[deal % len(solo_wins)] else 2
            others = iter(place for place in range(1, n + 1) if place != solo)
            places = [solo if seat == rotation else next(others) for seat in range(n)]
            results.append(rigged(deal, rotation, names, places))
    return results


@pytest.mark.parametrize(
    "bots",
    [
        ["solo", "crowd", "crowd", "crowd"],  # 1 against 3
        ["solo", "crowd", "crowd"],  # 1 against 2
        ["solo", "crowd", "crowd", "crowd", "crowd", "crowd"],  # 1 against 5
    ],
)
def test_a_bot_above_its_fair_share_with_the_better_place_ranks_first_against_more_seats(bots):
    # "solo" wins 40% of the games (fair share 1/n) and is 2nd in the others: the better bot by
    # win share and by mean place. Its best-placed rival beats it in 60% of the games, which
    # ranked "crowd" first when a name was rated as one team by its best seat.
    results = lopsided(bots, [True, True, False, False, False], deals=20)
    summary = summarize(make_schedule(bots, len(results)), results)
    solo, crowd = summary.bots
    assert solo.name == "solo"
    assert solo.win_share == pytest.approx(0.4)
    assert solo.win_share > solo.fair_share
    assert crowd.win_share < crowd.fair_share
    assert solo.mean_place < crowd.mean_place
    assert solo.rating.ordinal > crowd.rating.ordinal
    assert len(crowd.seat_ratings) == len(bots) - 1
    assert len(solo.seat_ratings) == 1
    assert crowd.rating == pooled_rating(crowd.seat_ratings)


def test_two_against_two_ranks_by_the_seats_results():
    bots = ["pair", "pair", "other", "other"]
    results = []
    for deal in range(30):
        for rotation in range(4):
            names = seating(bots, rotation)
            # the pair places 1st and 3rd (2nd and 4th in every third deal)
            pair = iter([1, 3] if deal % 3 else [2, 4])
            other = iter([2, 4] if deal % 3 else [1, 3])
            results.append(rigged(deal, rotation, names, [next(pair if n == "pair" else other) for n in names]))
    summary = summarize(make_schedule(bots, len(results)), results)
    assert [bot.name for bot in summary.bots] == ["pair", "other"]
    pair, other = summary.bots
    assert pair.win_share > pair.fair_share > other.win_share
    assert pair.mean_place < other.mean_place


def test_a_pooled_rating_is_one_seats_rating():
    ratings = [Rating(20.0, 2.0), Rating(30.0, 1.0)]
    pooled = pooled_rating(ratings)
    assert pooled.mu == 25.0
    assert pooled.sigma == pytest.approx(math.sqrt(2.5))  # root mean square: not shrunk by the seats
    assert pooled_rating([Rating(25.0, 8.0)] * 3) == Rating(25.0, 8.0)
    with pytest.raises(ValueError, match="no ratings"):
        pooled_rating([])


def test_equal_bots_in_more_seats_are_not_favoured():
    # every seat-player finishes in every place equally often: one name or three, the same rating
    bots = ["one", "three", "three", "three"]
    results = []
    for deal in range(40):
        for rotation in range(4):
            places = [1 + (seat + deal) % 4 for seat in range(4)]
            results.append(rigged(deal, rotation, seating(bots, rotation), places))
    one, three = sorted(summarize(make_schedule(bots, len(results)), results).bots, key=lambda bot: bot.name)
    assert one.mean_place == three.mean_place == 2.5
    assert abs(one.rating.mu - three.rating.mu) < 0.5
    assert abs(one.rating.sigma - three.rating.sigma) < 0.05


def _ranked(capsys: pytest.CaptureFixture[str], bots: str, players: str, games: str, seed: str) -> list[dict]:
    assert main(["arena", "--bots", bots, "--players", players, "--games", games, "--seed", seed, "--json"]) == 0
    return json.loads(capsys.readouterr().out)["results"]  # type: ignore[no-any-return]


def test_heuristic_ranks_above_three_basic_bots(capsys):
    # the line-up of the report: heuristic wins above its fair share with the better mean place
    results = _ranked(capsys, "heuristic,basic,basic,basic", "4", "400", "1")
    assert [row["bot"] for row in results] == ["heuristic", "basic"]
    heuristic, basic = results
    assert heuristic["win_share"] > heuristic["fair_share"]
    assert basic["win_share"] < basic["fair_share"]
    assert heuristic["mean_place"] < basic["mean_place"]


@pytest.mark.parametrize(
    ("bots", "players"),
    [
        ("basic,random", "4"),  # 1 against 3
        ("random,basic", "4"),  # 3 against 1
        ("basic,random", "3"),  # 1 against 2
        ("random,basic", "3"),  # 2 against 1
        ("basic,basic,random", "4"),  # 2 against 2
    ],
)
def test_basic_ranks_above_random_in_any_line_up(capsys, bots, players):
    results = _ranked(capsys, bots, players, "240", "7")
    assert [row["bot"] for row in results] == ["basic", "random"]
    basic, random = results
    assert basic["win_share_low"] > basic["fair_share"]
    assert random["win_share_high"] < random["fair_share"]
    assert basic["mean_place"] < random["mean_place"]


# ---------------------------------------------------------------------------------------- files


def test_output_files(tmp_path):
    status, out = arena(tmp_path, "--bots", "basic,random", "--players", "3", "--games", "10", "--seed", "4")
    assert status == 0
    games = read_csv(out / "games.csv")
    assert list(games[0]) == [
        "deal", "rotation", "seed", "bot_0", "bot_1", "bot_2", "place_0", "place_1", "place_2",
        "rounds", "failed", "failure",
    ]  # fmt: skip
    assert len(games) == 12  # 10 rounded up to 4 deals × 3 seatings
    assert all(sorted(int(row[f"place_{s}"]) for s in range(3))[0] == 1 and row["failed"] == "0" for row in games)
    summary_rows = read_csv(out / "summary.csv")
    assert tuple(summary_rows[0]) == SUMMARY_COLUMNS
    assert [row["bot"] for row in summary_rows] == ["basic", "random"]
    data = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert set(data) == {
        "engine", "partial", "stopped", "rules", "players", "bots", "seed", "games_requested", "games_scheduled",
        "deals", "rotations", "games_played", "games_finished", "games_failed", "results", "failures",
    }  # fmt: skip
    assert (data["games_requested"], data["games_scheduled"], data["deals"], data["partial"]) == (10, 12, 4, False)
    assert data["bots"] == ["basic", "random", "random"]
    assert [set(row) for row in data["results"]] == [set(SUMMARY_COLUMNS)] * 2
    assert sum(row["wins"] for row in data["results"]) == 12
    png = (out / "win_share.png").read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    assert len(png) > 5000


def test_table_says_when_games_were_rounded_up(capsys):
    assert main(["arena", "--bots", "basic,random", "--players", "3", "--games", "4", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "--games 4 was rounded up to 6" in out
    assert "Results by bot" in out
    assert "Play by bot" in out
    assert "PARTIAL" not in out


# ---------------------------------------------------------------------------------------- determinism


def test_same_seed_same_results_whatever_the_jobs(tmp_path, capsys):
    args = ["--bots", "basic,random,basic", "--players", "3", "--games", "36", "--seed", "9"]
    tables = []
    for jobs in ("1", "2"):
        assert arena(tmp_path, *args, "--jobs", jobs, name=f"jobs{jobs}")[0] == 0
        tables.append(capsys.readouterr().out.replace(str(tmp_path / f"jobs{jobs}"), "OUT"))
    assert tables[0] == tables[1]
    for name in ("games.csv", "summary.csv", "summary.json", "win_share.png"):
        assert (tmp_path / "jobs1" / name).read_bytes() == (tmp_path / "jobs2" / name).read_bytes(), name
    assert arena(tmp_path, *args[:-1], "10", name="other")[0] == 0
    assert (tmp_path / "other" / "games.csv").read_bytes() != (tmp_path / "jobs1" / "games.csv").read_bytes()


def test_basic_beats_random_above_its_fair_share(capsys):
    assert main(["arena", "--bots", "basic,random", "--players", "4", "--games", "120", "--seed", "3", "--json"]) == 0
    results = {row["bot"]: row for row in json.loads(capsys.readouterr().out)["results"]}
    assert results["basic"]["win_share_low"] > results["basic"]["fair_share"] == 0.25
    assert results["random"]["win_share_high"] < results["random"]["fair_share"] == 0.75
    assert results["basic"]["ordinal"] > results["random"]["ordinal"]
    assert results["basic"]["mean_place"] < results["random"]["mean_place"]


# ---------------------------------------------------------------------------------------- failing bots


def test_failing_bots_are_reported_saved_and_replayable(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(BOTS, "crasher", CrashingBot)
    monkeypatch.setitem(BOTS, "cheater", CheatingBot)
    args = ["--bots", "basic,crasher,cheater", "--players", "3", "--games", "12", "--seed", "5", "--jobs", "1"]
    status, out = arena(tmp_path, *args)
    assert status == 1, "a failed game is an error, after the report"
    captured = capsys.readouterr()
    table = " ".join(captured.out.split())
    data = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    failures = data["failures"]
    first = failures[0]
    assert captured.err.split("\n")[-2:] == [
        f"thirtyone: error: {len(failures)} of 12 games failed; the first, deal {first['deal']}, rotation "
        f"{first['rotation']}: {first['error']}; record: {first['record']}",
        "",
    ]
    assert data["games_failed"] == len(failures) > 0
    assert data["games_finished"] == 12 - len(failures) > 0
    by_bot = {row["bot"]: row for row in data["results"]}
    assert sum(row["failed"] for row in by_bot.values()) == len(failures)
    assert by_bot["basic"]["failed"] == 0
    assert by_bot["basic"]["games"] == data["games_finished"]
    assert sum(row["wins"] for row in by_bot.values()) == data["games_finished"]
    rows = {(int(row["deal"]), int(row["rotation"])): row for row in read_csv(out / "games.csv")}
    kinds = set()
    for failure in failures:
        key = (failure["deal"], failure["rotation"])
        assert rows[key]["failed"] == "1"
        assert rows[key]["place_0"] == ""
        assert rows[key][f"bot_{failure['seat']}"] == failure["bot"]
        assert f"bot {failure['bot']} in seat {failure['seat']}" in failure["error"]
        if failure["bot"] == "crasher":
            assert failure["seat"] == 0
            assert failure["action"] is None
            assert "raised RuntimeError: the crasher crashed" in failure["error"]
        else:
            assert (failure["bot"], failure["seat"], failure["action"]) == ("cheater", 2, "pass")
            assert "chose pass, which is not legal now" in failure["error"]
        kinds.add(failure["bot"])
        path = Path(failure["record"])
        assert path.parent == out / "failed"
        assert path.exists()
        game = GameRecord.loads(path.read_text(encoding="utf-8")).replay()
        assert not game.is_over
        assert game.current_seat == failure["seat"]
        assert main(["replay", str(path), "--json"]) == 0
    assert kinds == {"crasher", "cheater"}
    # Rotation 0 seats the cheater in seat 2, rotation 2 the crasher in seat 0: rotation 1 finishes.
    assert Counter(failure["bot"] for failure in failures) == {"cheater": 4, "crasher": 4}
    assert [key for key, row in rows.items() if row["failed"] == "0"] == [(deal, 1) for deal in range(4)]
    assert "failed: deal" in table
    assert "the crasher crashed" in table
    assert sum(row["failed"] == "0" for row in rows.values()) == data["games_finished"]


def test_failed_records_go_to_arena_failed_without_out(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(BOTS, "cheater", CheatingBot)
    monkeypatch.chdir(tmp_path)
    assert main(["arena", "--bots", "cheater", "--players", "3", "--games", "3", "--seed", "1"]) == 1
    assert len(list((tmp_path / "arena-failed").glob("deal-*-rotation-*.toml"))) == 3
    assert "arena-failed" in capsys.readouterr().out


def test_an_earlier_runs_arena_failed_records_are_refused_before_any_game_unless_overwrite(
    tmp_path, monkeypatch, capsys
):
    """A second run wrote its failed games' records over the first's in ``arena-failed/``, and the
    user's notes in one of them, without a word, as simulate did (issue 42)."""
    monkeypatch.setitem(BOTS, "cheater", CheatingBot)
    monkeypatch.chdir(tmp_path)
    args = ["arena", "--bots", "cheater", "--players", "3", "--seed", "1"]
    assert main([*args, "--games", "6"]) == 1
    first = sorted((tmp_path / "arena-failed").iterdir())
    first[0].write_text("the user's notes", encoding="utf-8")
    capsys.readouterr()
    assert main([*args, "--games", "3"]) == 2
    assert capsys.readouterr().err == (
        "thirtyone: error: arena-failed/ holds the records of games that failed in an earlier run: move them, "
        "or add --overwrite to replace them\n"
    )
    assert sorted((tmp_path / "arena-failed").iterdir()) == first
    assert first[0].read_text(encoding="utf-8") == "the user's notes"
    assert main([*args, "--games", "3", "--overwrite"]) == 1
    second = sorted((tmp_path / "arena-failed").iterdir())
    assert len(second) == 3 < len(first) == 6, "none of the earlier run's is left among them"
    assert second[0].read_text(encoding="utf-8") != "the user's notes"


# ---------------------------------------------------------------------------------------- interruptions


def test_ctrl_c_keeps_the_games_finished(tmp_path, monkeypatch, capsys):
    real = arena_backends.play_game_safely
    calls = []

    def interrupted_at_the_tenth(*args: object) -> GameResult:
        calls.append(args)
        if len(calls) == 10:
            raise KeyboardInterrupt
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(arena_backends, "play_game_safely", interrupted_at_the_tenth)
    status, out = arena(tmp_path, "--bots", "basic,random", "--games", "40", "--seed", "2", "--engine", "reference")
    assert status == 130
    captured = capsys.readouterr()
    assert "PARTIAL RESULTS: 9 of 40 games played (interrupted)" in captured.out
    assert "interrupted" in captured.err
    data = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert (data["partial"], data["stopped"], data["games_played"]) == (True, "interrupted", 9)
    assert len(read_csv(out / "games.csv")) == 9
    assert (out / "win_share.png").exists()


def test_sigterm_keeps_the_games_finished_as_ctrl_c_does(tmp_path, monkeypatch, capsys):
    """SIGTERM (``timeout``, ``kill``) ended the arena with nothing printed or written (issue 42)."""
    import signal

    real = arena_backends.play_game_safely
    calls = []

    def terminated_at_the_tenth(*args: object) -> GameResult:
        calls.append(args)
        if len(calls) == 10:
            signal.raise_signal(signal.SIGTERM)  # the real signal, through the handler the arena sets
        return real(*args)  # type: ignore[arg-type]

    def unhandled(_number, _frame):
        raise AssertionError("the arena set no handler for SIGTERM")

    monkeypatch.setattr(arena_backends, "play_game_safely", terminated_at_the_tenth)
    before = signal.signal(signal.SIGTERM, unhandled)  # not pytest's death, should the arena set none
    try:
        args = ["--bots", "basic,random", "--games", "40", "--seed", "2", "--engine", "reference"]
        status, out = arena(tmp_path, *args)
        assert signal.getsignal(signal.SIGTERM) is unhandled, "the handler before is restored"
    finally:
        signal.signal(signal.SIGTERM, before)
    assert status == 143
    captured = capsys.readouterr()
    assert "PARTIAL RESULTS: 9 of 40 games played (terminated)" in captured.out
    assert captured.err.endswith("thirtyone: terminated: the results above are partial\n")
    data = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert (data["partial"], data["stopped"], data["games_played"]) == (True, "terminated", 9)
    assert len(read_csv(out / "games.csv")) == 9


@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM"])
def test_a_stop_while_a_game_is_counted_leaves_it_counted_whole(monkeypatch, ctrl_c, name):
    """Ctrl-C (or SIGTERM, in the command's stopping block) that came while a game was added to the
    tally (Tally.add) left it half counted in the partial results: one bot's places, not the
    other's, nor the ratings (issue 42). The real signal comes in the fourth game's count of its
    second seat; SIGINT reaches run_arena with Python's own handler, as a library caller has it."""
    import signal

    from thirtyone.cli.stopping import stopping

    real_add = SeatTotals.add
    adds = []

    def add(self, *args, **kwargs):
        adds.append(1)
        if len(adds) == 8:
            signal.raise_signal(getattr(signal, name))
        real_add(self, *args, **kwargs)

    bots = ["basic", "random"]
    monkeypatch.setattr(SeatTotals, "add", add)
    with stopping() if name == "SIGTERM" else contextlib.nullcontext(), LocalBackend(1) as backend:
        stopped = run_arena(SCAT, make_schedule(bots, games=10), 2, backend)
    monkeypatch.undo()
    with LocalBackend(1) as backend:
        whole = run_arena(SCAT, make_schedule(bots, games=4), 2, backend)
    assert (stopped.interrupted, stopped.summary.partial, whole.complete) == (True, True, True)
    assert (stopped.summary.finished, stopped.summary.bots) == (4, whole.summary.bots)


class BrokenBackend(LocalBackend):
    """Plays the first task, then fails like a lost worker."""

    def run(self, tasks, on_results):
        on_results(play_task(tasks[0]))
        raise BackendError("a local worker failed: BrokenProcessPool: a process terminated abruptly")


def test_a_backend_failure_keeps_the_games_finished(tmp_path, monkeypatch, capsys):
    schedule = make_schedule(["basic", "random"], 64)
    with BrokenBackend(1) as backend:
        outcome = run_arena(SCAT, schedule, 1, backend)
    first = len(make_tasks(SCAT, schedule, 1, 1)[0])
    assert outcome.summary.partial
    assert outcome.summary.finished == first < 64
    assert outcome.error is not None
    assert "BrokenProcessPool" in outcome.error

    monkeypatch.setattr(cli_arena, "make_backend", lambda *args: BrokenBackend(1))
    status, out = arena(tmp_path, "--bots", "basic,random", "--games", "64", "--seed", "1")
    assert status == 1
    captured = capsys.readouterr()
    assert f"PARTIAL RESULTS: {first} of 64 games played (backend failed" in captured.out
    assert "thirtyone: error: a local worker failed" in captured.err
    assert json.loads((out / "summary.json").read_text(encoding="utf-8"))["partial"] is True


# ---------------------------------------------------------------------------------------- errors


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--bots", "basic,wizard"], "unknown bot 'wizard'"),
        (["--bots", "basic,random,random,basic,basic"], "5 bots named for 4 bot seats"),
        (["--players", "1"], "R2.1: 1 player"),
        (["--players", "10"], "R2.1"),
        (["--players", "9", "--preset", "schwimmen"], "R2.1: 9 players need 33 cards"),
        (["--games", "0"], "--games 0: play from 1"),
        (["--games", "-5"], "--games -5"),
        (["--jobs", "0"], "--jobs 0: use from 1 to"),
        (["--jobs", "100000"], "--jobs 100000"),
        (["--backend", "spark"], "unknown backend 'spark'"),
        (["--address", "10.0.0.1:6379"], "--address is for --backend ray"),
        (["--three-of-a-kind", "29"], "option three_of_a_kind is one of off, 30, 30.5"),
    ],
)
def test_bad_input_is_one_line_exit_2(capsys, args, message):
    assert main(["arena", "--games", "4", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("thirtyone: error: ")
    assert err.count("\n") == 1
    assert message in err


def test_ray_missing_says_how_to_install(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "ray", None)
    assert main(["arena", "--games", "4", "--backend", "ray"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'thirtyone[distributed]'" in err
    assert err.count("\n") == 1


def test_unreachable_ray_address_is_one_line_exit_2(capsys):
    pytest.importorskip("ray")
    assert main(["arena", "--games", "4", "--backend", "ray", "--address", f"127.0.0.1:{closed_port()}"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("thirtyone: error: cannot reach a Ray cluster at 127.0.0.1:")
    assert err.count("\n") == 1


def test_rule_options_reach_the_games(capsys):
    args = ["arena", "--preset", "schwimmen", "--lives", "2", "--bots", "basic,random", "--players", "3"]
    assert main([*args, "--games", "6", "--seed", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rules"] == "schwimmen, lives=2"
    assert data["games_finished"] == 6


# ---------------------------------------------------------------------------------------- ray


def test_ray_backend_gives_the_local_results(local_ray, tmp_path, capsys):
    args = ["--bots", "basic,random", "--players", "4", "--games", "48", "--seed", "6"]
    assert arena(tmp_path, *args, "--backend", "ray", name="ray")[0] == 0
    assert local_ray.is_initialized()  # the test's Ray was used, and left running
    assert arena(tmp_path, *args, "--jobs", "1", name="local")[0] == 0
    capsys.readouterr()
    for name in ("games.csv", "summary.csv", "summary.json", "win_share.png"):
        assert (tmp_path / "ray" / name).read_bytes() == (tmp_path / "local" / name).read_bytes(), name


def _arena_json(capsys: pytest.CaptureFixture[str], *args: str) -> dict[str, Any]:
    assert main(["arena", "--json", *args]) == 0
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def test_the_simulator_plays_basic_and_random_arenas_identically_for_any_jobs(
    capsys: pytest.CaptureFixture[str],
) -> None:
    pytest.importorskip("numba")
    args = ("--bots", "basic,random", "--games", "200", "--seed", "4")
    one = _arena_json(capsys, *args, "--jobs", "1")
    two = _arena_json(capsys, *args, "--jobs", "2")
    assert one["engine"] == "sim"
    assert one["results"] == two["results"]
    basic = next(row for row in one["results"] if row["bot"] == "basic")
    assert basic["win_share_low"] > basic["fair_share"]
    slow = _arena_json(capsys, *args, "--engine", "reference")
    assert slow["engine"] == "reference"
    assert slow["results"] == one["results"]  # the same games on either engine


@pytest.mark.parametrize(("bots", "players"), [("basic,random", "4"), ("random,easy,random", "3"), ("random", "5")])
def test_the_same_seed_gives_the_same_files_on_either_engine(tmp_path, capsys, bots, players):
    pytest.importorskip("numba")
    args = ("--bots", bots, "--players", players, "--games", "30", "--seed", "8", "--preset", "widow")
    for engine in ("sim", "reference"):
        assert arena(tmp_path, *args, "--engine", engine, name=engine)[0] == 0
    capsys.readouterr()
    for name in ("games.csv", "summary.csv", "win_share.png"):
        assert (tmp_path / "sim" / name).read_bytes() == (tmp_path / "reference" / name).read_bytes(), name
    fast, slow = (json.loads((tmp_path / engine / "summary.json").read_text()) for engine in ("sim", "reference"))
    assert (fast.pop("engine"), slow.pop("engine")) == ("sim", "reference")
    assert fast == slow


def test_simulator_results_are_whole_games() -> None:
    pytest.importorskip("numba")
    from thirtyone.arena.play import play_games_fast

    keys = [(deal, rotation) for deal in range(5) for rotation in range(3)]
    results = play_games_fast(Rules.preset("widow"), ("basic", "random", "easy"), 9, keys)
    assert [result.key for result in results] == keys
    for result in results:
        assert result.places is not None
        assert sorted(result.places)[0] == 1
        assert result.winner is not None
        assert result.places[result.winner] == 1
        assert result.rounds_played[result.winner] == result.rounds
        assert all(1 <= played <= result.rounds for played in result.rounds_played)
    by_deal = {}
    for result in results:  # every seating of a deal meets the same first deal
        by_deal.setdefault(result.deal, set()).add(result.seed)
    assert all(len(seeds) == 1 for seeds in by_deal.values())


def test_engine_choice_for_bots_the_simulator_does_not_play(capsys: pytest.CaptureFixture[str]) -> None:
    assert _arena_json(capsys, "--bots", "heuristic,basic", "--games", "4", "--seed", "1")["engine"] == "reference"
    assert main(["arena", "--bots", "heuristic,basic", "--games", "4", "--engine", "sim"]) == 2
    assert "plays only the random and basic bots exactly" in capsys.readouterr().err


# ---------------------------------------------------------------------------------------- output folder


def test_an_out_folder_with_results_is_refused_unless_overwrite(tmp_path, capsys):
    args = ("--bots", "basic,random", "--players", "3", "--games", "6")
    assert arena(tmp_path, *args, "--seed", "1")[0] == 0
    out = tmp_path / "out"
    before = {path.name: path.read_bytes() for path in out.iterdir()}
    capsys.readouterr()
    status, _ = arena(tmp_path, *args, "--seed", "2")
    assert status == 2
    err = capsys.readouterr().err
    assert err.startswith(f"thirtyone: error: --out {out}: the folder already holds results (games.csv, ")
    assert "add --overwrite" in err
    assert err.count("\n") == 1
    assert {path.name: path.read_bytes() for path in out.iterdir()} == before  # nothing changed
    assert arena(tmp_path, *args, "--seed", "2", "--overwrite")[0] == 0
    assert (out / "games.csv").read_bytes() != before["games.csv"]


def test_overwrite_removes_the_earlier_failed_records(tmp_path, monkeypatch, capsys):
    monkeypatch.setitem(BOTS, "cheater", CheatingBot)
    args = ("--players", "3", "--games", "3", "--seed", "5")
    assert arena(tmp_path, "--bots", "basic,basic,cheater", *args)[0] == 1
    assert list((tmp_path / "out" / "failed").glob("*.toml"))
    assert arena(tmp_path, "--bots", "basic", *args)[0] == 2  # failed/ alone is results too
    assert "already holds results (games.csv, summary.csv, summary.json, win_share.png, failed/)" in (
        capsys.readouterr().err
    )
    assert arena(tmp_path, "--bots", "basic", *args, "--overwrite")[0] == 0
    assert list((tmp_path / "out" / "failed").glob("*.toml")) == []


def test_an_out_folder_without_results_is_used(tmp_path, capsys):
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "notes.txt").write_text("mine", encoding="utf-8")
    assert arena(tmp_path, "--bots", "basic,random", "--games", "4", "--seed", "1")[0] == 0
    assert (tmp_path / "out" / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert (tmp_path / "out" / "summary.json").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--out", ""], "--out '': an empty path; give a folder for the results"),
        (["--out", "a-file"], "--out a-file: that is a file, not a folder"),
    ],
)
def test_bad_output_paths_are_refused_and_nothing_is_written(tmp_path, monkeypatch, capsys, args, message):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a-file").write_text("x", encoding="utf-8")
    assert main(["arena", "--games", "4", "--bots", "basic,random", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("thirtyone: error: ")
    assert message in err
    assert err.count("\n") == 1
    assert [path.name for path in tmp_path.iterdir()] == ["a-file"]
    assert (tmp_path / "a-file").read_text(encoding="utf-8") == "x"


# ---------------------------------------------------------------------------------------- workers and output


def test_jobs_are_capped_at_the_games_and_the_cpus(monkeypatch):
    from thirtyone.arena import make_backend
    from thirtyone.arena import worker_count

    assert worker_count(999, 12, cpus=4) == 4
    assert worker_count(999, 3, cpus=16) == 3
    assert worker_count(2, 100, cpus=16) == 2
    assert worker_count(5, 1, cpus=1) == 1
    monkeypatch.setattr(os, "cpu_count", lambda: 6)
    assert worker_count(999, 100) == 6
    monkeypatch.setattr(os, "cpu_count", lambda: None)
    assert worker_count(999, 100) == 1
    assert make_backend("local", 999, games=3).jobs == 1
    assert make_backend("local", 999).jobs == 999, "without games, the jobs asked for (the library's choice)"


def test_the_cli_caps_the_jobs(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(os, "cpu_count", lambda: 3)
    made = []
    make_backend = cli_arena.make_backend

    def make_in_process(*args: Any) -> LocalBackend:
        made.append(make_backend(*args).jobs)  # made, never started
        return LocalBackend(1)

    monkeypatch.setattr(cli_arena, "make_backend", make_in_process)
    assert main(["arena", "--bots", "basic,random", "--players", "2", "--games", "2", "--jobs", "999"]) == 0
    assert made == [2]
    assert main(["arena", "--bots", "basic,random", "--players", "2", "--games", "8", "--jobs", "999"]) == 0
    assert made == [2, 3]
    capsys.readouterr()
    with pytest.raises(SystemExit):
        main(["arena", "--help"])
    assert "local worker processes, at most one per game and per CPU" in " ".join(capsys.readouterr().out.split())


def test_long_bot_names_are_never_cut_at_80_columns(tmp_path, monkeypatch, capsys):
    from cli_helpers import bot_names_in_tables
    from cli_helpers import long_named_bots

    one, two = long_named_bots(tmp_path, monkeypatch)
    assert main(["arena", "--bots", f"{one},{two},basic", "--players", "3", "--games", "3", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "…" not in out
    assert max(len(line) for line in out.split("\n")) <= 80
    tables = bot_names_in_tables(out)
    assert len(tables) == 2  # results and play
    for names in tables:
        assert sorted(names) == sorted([one, two, "basic"]), names


def test_stderr_has_no_blank_lines(capsys):
    assert main(["arena", "--bots", "basic,random", "--games", "4", "--seed", "1", "--engine", "reference"]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert err.startswith("4 games in ")


@pytest.mark.parametrize(
    ("games", "seconds", "said"),
    [
        (20, 638.7, "31.9 s/game"),  # the line said "0 games/s"
        (4, 1.2, "3.3 games/s"),
        (1, 1.0, "1.0 games/s"),
        (100_000, 20.0, "5,000 games/s"),
        (3, 0.0, "no measurable time"),
    ],
)
def test_item14_the_speed_line_gives_a_figure_that_means_something(games, seconds, said):
    from thirtyone.arena.report import speed_text

    assert speed_text(games, seconds) == said


def test_item14_the_arena_says_its_speed_per_game_when_games_are_slow(monkeypatch, capsys):
    ticks = iter([0.0, 638.7])
    monkeypatch.setattr(cli_arena.time, "perf_counter", lambda: next(ticks))
    assert main(["arena", "--bots", "basic,random", "--games", "4", "--seed", "1", "--engine", "reference"]) == 0
    assert capsys.readouterr().err == "4 games in 638.7 s (159.7 s/game, 1 job)\n"


def test_item14_a_bot_name_that_fits_80_columns_is_never_split(monkeypatch, capsys):
    """``greedy_bot:make_bot`` (the example package) was folded as ``greedy_bot:ma`` over ``ke_bot``."""
    monkeypatch.syspath_prepend(str(Path(__file__).parents[1] / "examples" / "greedy_bot" / "src"))
    monkeypatch.setenv("COLUMNS", "80")
    args = ["arena", "--bots", "greedy_bot:make_bot,basic,heuristic,random", "--games", "4", "--seed", "1"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.split("\n")) <= 80
    rows = [line for line in out.split("\n") if line.startswith("greedy_bot")]
    assert len(rows) == 2  # results and play
    assert all(row.startswith("greedy_bot:make_bot ") for row in rows), rows
