"""``thirtyone analyze``: the odds of a variant (thirtyone.arena.odds and its modules).

The exact figures are held to counts made here another way (a plain loop over every hand, or
every pair of hands, scored by the engine's own ``hand_value`` or by a scorer written out here),
and to RULES.md's reference numbers (R1.7); the simulated ones to the engine (the knock's turn
worked out from the simulator's counts) and to the exact ones (dealt tables against the exact two
players). The command line is run as a user runs it, with tiny sizes: tables, JSON, SVG charts,
repeatable figures, bad input refused in one line, Ctrl-C keeping what was done.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from fractions import Fraction
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from cli_helpers import cli_error_line
from thirtyone import sim
from thirtyone.actions import Knock
from thirtyone.arena import odds
from thirtyone.arena.odds import SECTIONS
from thirtyone.arena.odds import Analysis
from thirtyone.arena.odds_cards import HALVES
from thirtyone.arena.odds_cards import deal_lowest
from thirtyone.arena.odds_cards import hand_values
from thirtyone.arena.odds_cards import lowest_two
from thirtyone.arena.odds_cards import value_table
from thirtyone.arena.odds_options import CHART_FILES
from thirtyone.arena.odds_options import EXPERT_ROUNDS
from thirtyone.arena.odds_options import FALLBACK
from thirtyone.arena.odds_options import JUDGE_ROUNDS
from thirtyone.arena.odds_options import Sizes
from thirtyone.arena.odds_play import KnockTable
from thirtyone.arena.odds_play import expert_first_round
from thirtyone.arena.odds_play import knocks_of_rounds
from thirtyone.bots import make_bot
from thirtyone.bots.heuristic import rollout_action
from thirtyone.bots.runner import BotError
from thirtyone.cards import full_deck
from thirtyone.cli import main
from thirtyone.engine import Game
from thirtyone.errors import RulesError
from thirtyone.rules import Rules
from thirtyone.scoring import hand_value

needs_sim = pytest.mark.skipif(not sim.available(), reason="the compiled simulator needs numba")

TINY = ["--deals", "300", "--rounds", "3000", "--positions", "40", "--games", "200", "--expert-rounds", "2"]
TINY += ["--expert", "expert:8"]


def standard_value(cards: tuple[Any, ...]) -> int:
    """R1.3 written out: the highest total of one suit's cards (A 11, faces 10, pips their number)."""
    totals: Counter[int] = Counter()
    for card in cards:
        rank = card.rank + 2  # 2..14
        totals[card.suit] += 11 if rank == 14 else 10 if rank > 10 else rank
    return max(totals.values())


def test_r1_7_the_52_card_hands_and_their_values_match_a_count_card_by_card() -> None:
    hands = hand_values(Rules.preset("scat"))
    counted = Counter(2 * standard_value(hand) for hand in combinations(full_deck(52), 3))
    assert hands.hands == 22_100 == sum(counted.values())
    assert hands.counts == dict(counted)
    assert (hands.counts[62], hands.counts[60], hands.counts[20]) == (24, 32, 5_732)  # R1.7
    assert round(float(hands.mean), 3) == 13.088
    assert hands.blitz == Fraction(24, 22_100)


@pytest.mark.parametrize(("option", "half", "count"), [("30", 60, 84), ("30.5", 61, 52)])
def test_r1_7_three_of_a_kind_counts(option: str, half: int, count: int) -> None:
    assert hand_values(Rules.preset("scat", three_of_a_kind=option)).counts[half] == count


def test_r1_5_three_aces_are_a_dealt_blitz_of_33() -> None:
    hands = hand_values(Rules.preset("schwimmen"))
    assert hands.hands == 4_960
    assert hands.counts[66] == 4  # the four sets of three aces
    assert len(hands.blitz_hands) == 24 + 4
    assert sum(hands.counts.values()) == hands.hands


def pairs_of_hands(rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Every hand of the deck with its value by the engine's ``hand_value`` (half points) and, for
    each pair of hands, whether they share no card: ``(values, masks, disjoint[i, j])``."""
    hands = list(combinations(full_deck(rules.deck), 3))
    values = np.array([int(2 * hand_value(hand, rules)) for hand in hands])
    masks = np.array([sum(1 << int(card) for card in hand) for hand in hands], dtype=np.int64)
    disjoint = (masks[:, None] & masks[None, :]) == 0
    return values, masks, disjoint


def test_r5_2_a_blitz_at_a_table_of_two_matches_every_deal_of_two_hands() -> None:
    for rules in (Rules.preset("schwimmen"), Rules.preset("mini")):
        values, _, disjoint = pairs_of_hands(rules)
        blitz = values >= 62
        deals = int(disjoint.sum())  # ordered pairs of hands with no card in common
        someone = int((disjoint & (blitz[:, None] | blitz[None, :])).sum())
        assert hand_values(rules).blitz_at_table(2) == Fraction(someone, deals)


def test_r5_2_a_blitz_at_larger_tables_agrees_with_tables_dealt_at_random() -> None:
    rules = Rules.preset("schwimmen")
    exact = hand_values(rules)
    rng = np.random.default_rng(20261204)
    deck = np.array(full_deck(32))
    for players in (4, 8):
        orders = rng.permuted(np.tile(deck, (100_000, 1)), axis=1)[:, : 3 * players].reshape(-1, players, 3)
        values = value_table(rules)[orders[..., 0] * 2704 + orders[..., 1] * 52 + orders[..., 2]]
        share = float((values >= 62).any(axis=1).mean())
        chance = float(exact.blitz_at_table(players))
        assert abs(share - chance) < 4 * np.sqrt(chance * (1 - chance) / 100_000), players
    with pytest.raises(RulesError, match=r"R2\.1"):
        exact.blitz_at_table(9)  # 32 cards deal 8 players at most


def test_the_lowest_of_two_hands_matches_every_pair_of_hands() -> None:
    rules = Rules.preset("schwimmen")
    values, _, disjoint = pairs_of_hands(rules)
    at_most = (values[:, None] <= values[None, :]) & disjoint  # hand i no better than hand j
    exact = lowest_two(rules)
    for half in np.unique(values):
        mine = values == half
        expected = Fraction(int(at_most[mine].sum()), int(disjoint[mine].sum()))
        assert exact[int(half)] == expected, half


def test_tables_dealt_at_random_agree_with_the_exact_two_players() -> None:
    rules = Rules.preset("scat")
    lowest, dealt = deal_lowest(rules, 2, 40_000, np.random.default_rng(20261204), value_table(rules))
    assert lowest.shape == dealt.shape == (HALVES,)
    assert dealt.sum() == 40_000
    exact = lowest_two(rules)
    for half in np.flatnonzero(dealt >= 500):
        share = lowest[half] / dealt[half]
        spread = 4 * np.sqrt(float(exact[int(half)]) * (1 - float(exact[int(half)])) / dealt[half]) + 1e-9
        assert abs(share - float(exact[int(half)])) <= spread, half


@pytest.mark.parametrize(("preset", "players"), [("scat", 4), ("schwimmen", 3), ("widow", 5)])
def test_r6_2_the_knocks_turn_worked_out_from_the_rounds_counts_is_the_engines(preset: str, players: int) -> None:
    """The simulator reports who knocked and the round's completed turns; the knock's own turn is
    worked out from them. Here the engine plays the heuristic's rounds and says when each knock was."""
    from thirtyone.sim import CounterChance

    rules = Rules.preset(preset)
    knocks = 0
    for seed in range(60):
        game = Game(rules, players, chance=CounterChance(seed))
        log = game.round_logs[0]
        knock = None
        while log.result is None:
            seat, turn = game.current_seat, game.turn
            assert seat is not None
            action = rollout_action(game, seat, game.legal_actions())
            game.apply(action)
            if action == Knock():
                knock = (seat, turn // players + 1)
        result = log.result
        knocked = -1 if knock is None else knock[0]
        _, turns = knocks_of_rounds(players, log.dealer, [knocked], [result.turns], [result.end == "throw_down"])
        assert (turns.tolist() or [None])[0] == (None if knock is None else knock[1]), seed
        knocks += knock is not None
    assert knocks > 30


def test_an_expert_that_fails_in_its_first_round_raises_bot_error_naming_it(monkeypatch: pytest.MonkeyPatch) -> None:
    class Stubborn:
        name = "stubborn"

        def choose(self, view: object, legal: object) -> str:
            return "knock"

    def made(name: str, seed: int) -> object:
        return Stubborn() if seed == 5 else make_bot(name, seed)

    monkeypatch.setattr("thirtyone.arena.odds_play.make_bot", made)
    with pytest.raises(BotError, match=r"^bot stubborn in seat 1 chose 'knock' \(not an action\)") as raised:
        expert_first_round(Rules.preset("scat"), 3, "expert:4", seed=3)  # seat 1's bot: seed 3 + 1 + 1
    assert raised.value.__cause__ is None  # it chose, it did not raise


@needs_sim
def test_the_heuristics_knock_table_counts_what_the_simulator_played() -> None:
    rules = Rules.preset("scat")
    analysis = Analysis(rules, 4, Sizes(deals=0, rounds=5_000, positions=0, games=0, expert_rounds=0), seed=9).run()
    table = analysis.heuristic
    assert table is not None
    assert table.rounds == 5_000
    seed = next(odds._seeds(9, "heuristic"))
    batch = sim.play_rounds(rules, 4, rounds=5_000, policy="heuristic", seed=seed)
    knocked = np.flatnonzero(batch.knocked >= 0)
    assert table.knocks.sum() == len(knocked)
    assert table.costly.sum() == int((batch.lost[knocked, batch.knocked[knocked]] > 0).sum())
    assert table.lives.sum() == int(batch.lost[knocked, batch.knocked[knocked]].sum())
    lost = [mean.total for mean in analysis.seats.round_lives]
    assert lost == [float(batch.lost[:, (place + 1) % 4].sum()) for place in range(4)]  # place 0: dealer's left


def test_a_knock_table_adds_up() -> None:
    table = KnockTable().plus(2, halves=[40, 61, 66], turns=[1, 9, 2], lost=[2, 0, 1])
    assert table.rounds == 2
    assert table.knocks.sum() == 3
    assert table.knocks[30, 7] == 1  # 30½ counts as 30; turn 9 in the last column
    assert table.share(value=33).to_dict()["share"] == 1.0
    assert table.share(turn=1).hits == 1
    assert int(table.lives.sum()) == 3


def analyze(capsys: pytest.CaptureFixture[str], *args: str, status: int = 0) -> dict[str, Any]:
    assert main(["analyze", *TINY, "--json", *args]) == status
    data: dict[str, Any] = json.loads(capsys.readouterr().out)
    return data


def figures(data: dict[str, Any]) -> dict[str, Any]:
    """The data less the seconds each section took."""
    for section in data["sections"].values():
        section.pop("seconds", None)
    return data


@needs_sim
def test_analyze_json_gives_every_section_saying_exact_or_simulated(capsys: pytest.CaptureFixture[str]) -> None:
    data = analyze(capsys, "--seed", "4", "--players", "3")
    assert data["partial"] is False
    assert data["players"] == 3
    assert data["seed"] == 4
    sections = data["sections"]
    assert [sections[name]["status"] for name in SECTIONS] == ["done"] * len(SECTIONS)
    assert sections["hands"]["method"] == "exact"
    assert sections["hands"]["hands"] == 22_100
    assert sections["hands"]["blitz"]["at_table"]["2"]["exact"] == "11049/5089630"
    assert sections["lowest"]["method"] == {"2": "exact", **{str(n): "simulated" for n in range(3, 10)}}
    assert sections["lowest"]["deals"] == {str(n): 300 for n in range(3, 10)}
    for name in ("heuristic", "expert", "draws", "games"):
        assert sections[name]["method"] == "simulated", name
        assert "how" in sections[name]
    assert sections["heuristic"]["rounds"] == 3_000
    assert sections["expert"]["rounds"] == 2
    assert sections["heuristic"]["costly"]["low"] <= sections["heuristic"]["costly"]["share"]
    assert sum(row["positions"] for row in sections["draws"]["rows"]) == 40
    assert sum(row["hits"] for row in sections["games"]["win_share"]) == 200
    assert figures(data) == figures(analyze(capsys, "--seed", "4", "--players", "3"))  # the same seed, the same figures


@needs_sim
def test_analyze_prints_a_table_a_section(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyze", *TINY, "--seed", "2", "--preset", "widow"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # as the terminal's width wraps it
    assert out.startswith("Odds of widow with 4 players, seed 2")
    for title in (
        "Dealt hand values, exact (22,100 hands): mean 13.088 points",
        "A dealt blitz, exact: 24 hands of 22,100, 1 hand in 921",
        "Chance (%) a dealt hand is the lowest at the table, ties included; 2 players exact",
        "Knocks of the heuristic, simulated: ",
        "Knocks of expert:8, simulated: ",
        "The best exchange against a pass, simulated: 40 positions",
        "Games won by place after the first dealer, simulated (200 games",
        "A game lasts ",
    ):
        assert title in out, title
    assert "PARTIAL" not in out


@needs_sim
def test_analyze_writes_svg_charts_that_say_exact_or_simulated(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "charts"
    analyze(capsys, "--seed", "3", "--chart", str(folder))
    assert sorted(path.name for path in folder.iterdir()) == sorted(CHART_FILES)
    texts = {name: (folder / name).read_text(encoding="utf-8") for name in CHART_FILES}
    for name, text in texts.items():
        assert text.startswith("<?xml"), name
        assert "<svg" in text, name
        assert len(text) < 120_000, name
        assert "scat, 4 players, seed 3" in text, name
    assert "exact" in texts["hand-values.svg"]
    assert "exact" in texts["lowest.svg"]
    for name in ("knocks-heuristic.svg", "knocks-expert.svg", "draws.svg", "seats.svg", "length.svg"):
        assert "simulated" in texts[name], name
    assert "Knocks of the heuristic (simulator), simulated: " in texts["knocks-heuristic.svg"]
    again = tmp_path / "again"
    analyze(capsys, "--seed", "3", "--chart", str(again))
    assert all((again / name).read_bytes() == (folder / name).read_bytes() for name in CHART_FILES)  # repeatable


@needs_sim
def test_a_chart_folder_with_charts_is_replaced_only_with_overwrite(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "seats.svg").write_text("old", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("mine", encoding="utf-8")
    line = cli_error_line(capsys, ["analyze", *TINY, "--chart", str(tmp_path)])
    assert "already holds charts (seats.svg)" in line
    assert "--overwrite" in line
    assert (tmp_path / "seats.svg").read_text(encoding="utf-8") == "old"
    analyze(capsys, "--chart", str(tmp_path), "--overwrite", "--games", "0", "--rounds", "0")
    assert not (tmp_path / "seats.svg").exists()  # no section measured it this time: the old chart is gone
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "mine"
    assert (tmp_path / "hand-values.svg").exists()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--all-pass", "showdown"], "option all_pass=showdown needs mode=widow"),
        (["--players", "9", "--preset", "schwimmen"], "R2.1: 9 players need 33 cards"),
        (["--players", "1"], "R2.1"),
        (["--preset", "poker"], "unknown preset 'poker'"),
        (["--three-of-a-kind", "29"], "option three_of_a_kind is one of off, 30, 30.5"),
        (["--rounds", "-1"], "--rounds -1: give a whole number from 0 (skip it) to 100,000,000"),
        (["--expert-rounds", "2000000"], "--expert-rounds 2000000: give a whole number from 0"),
        (["--expert", "basic"], "--expert 'basic': give the judge (judge, or judge:PATH for weights of your own) or "),
        (["--expert", "expert:0"], "--expert 'expert:0': bad expert budget '0' in 'expert:0'"),
        (["--expert", "judge:no/such.npz"], "--expert 'judge:no/such.npz': judge weights 'no/such.npz': no such file"),
        (
            ["--expert", "judge", "--preset", "namu"],
            "--expert judge: the judge's weights were made for scat, schwimmen, widow, not namu",
        ),
        (["--overwrite"], "--overwrite is for --chart DIR"),
        (["--chart", ""], "--chart '': an empty path"),
    ],
)
def test_bad_input_is_refused_in_one_line_before_anything_is_run(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    assert message in cli_error_line(capsys, ["analyze", *TINY, *args])


def test_conflicting_rules_are_refused_as_play_refuses_them(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--preset", "scat", "--all-pass", "new_widow"]
    assert cli_error_line(capsys, ["analyze", *args]) == cli_error_line(capsys, ["play", *args])


def test_a_chart_path_that_is_a_file_or_under_no_folder_is_refused(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    (tmp_path / "file").write_text("x", encoding="utf-8")
    assert "that is a file" in cli_error_line(capsys, ["analyze", *TINY, "--chart", str(tmp_path / "file")])
    missing = tmp_path / "no" / "charts"
    assert "does not exist" in cli_error_line(capsys, ["analyze", *TINY, "--chart", str(missing)])
    assert not (tmp_path / "no").exists()


@needs_sim
def test_ctrl_c_keeps_what_is_done_and_marks_it_partial(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = odds.value_draws
    calls = []

    def stopped(*args: Any) -> Any:
        calls.append(1)
        if len(calls) == 2:  # the second chunk of positions: the first is kept
            raise KeyboardInterrupt
        return real(*args)

    monkeypatch.setattr(odds, "value_draws", stopped)
    monkeypatch.setattr(odds, "_CHUNK_POSITIONS", 25)  # positions are valued 25 at a time here
    assert main(["analyze", *TINY, "--json", "--seed", "5", "--positions", "60", "--chart", str(tmp_path)]) == 130
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert data["partial"] is True
    assert data["stopped"] == "interrupted"
    status = {name: section["status"] for name, section in data["sections"].items()}
    assert status == {
        "hands": "done",
        "lowest": "done",
        "heuristic": "done",
        "expert": "done",
        "draws": "partial",
        "games": "not run",
    }
    assert sum(row["positions"] for row in data["sections"]["draws"]["rows"]) == 25  # the chunk it finished
    assert captured.err.strip().endswith("thirtyone: interrupted: the results above are partial")
    assert "PARTIAL" in (tmp_path / "draws.svg").read_text(encoding="utf-8")
    assert not (tmp_path / "length.svg").exists()
    calls.clear()
    assert main(["analyze", *TINY, "--seed", "5", "--positions", "60"]) == 130
    out = " ".join(capsys.readouterr().out.split())
    assert "PARTIAL RESULTS: the analysis was stopped in visible card or hidden (draws) (interrupted)" in out
    assert "Seats and length of play (games): not run" in out


@needs_sim
def test_sigterm_keeps_what_is_done_and_marks_it_partial_as_ctrl_c_does(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGTERM (``timeout``, ``kill``) ended analyze with nothing printed (issue 42)."""
    import signal

    real = odds.value_draws
    calls = []

    def terminated(*args: Any) -> Any:
        calls.append(1)
        if len(calls) == 2:  # the second chunk of positions: the first is kept
            signal.raise_signal(signal.SIGTERM)  # the real signal, through the handler analyze sets
        return real(*args)

    def unhandled(_number: int, _frame: Any) -> None:
        raise AssertionError("analyze set no handler for SIGTERM")

    monkeypatch.setattr(odds, "value_draws", terminated)
    monkeypatch.setattr(odds, "_CHUNK_POSITIONS", 25)  # positions are valued 25 at a time here
    before = signal.signal(signal.SIGTERM, unhandled)  # not pytest's death, should analyze set none
    try:
        assert main(["analyze", *TINY, "--json", "--seed", "5", "--positions", "60"]) == 143
        assert signal.getsignal(signal.SIGTERM) is unhandled, "the handler before is restored"
    finally:
        signal.signal(signal.SIGTERM, before)
    captured = capsys.readouterr()
    data = json.loads(captured.out)
    assert (data["partial"], data["stopped"]) == (True, "terminated")
    assert (data["sections"]["draws"]["status"], data["sections"]["games"]["status"]) == ("partial", "not run")
    assert sum(row["positions"] for row in data["sections"]["draws"]["rows"]) == 25  # the chunk it finished
    assert captured.err.endswith("thirtyone: terminated: the results above are partial\n")


def test_sections_the_simulator_cannot_play_are_skipped_with_the_reason(capsys: pytest.CaptureFixture[str]) -> None:
    data = analyze(capsys, "--preset", "mini", "--players", "2")
    sections = data["sections"]
    assert sections["hands"]["status"] == sections["lowest"]["status"] == sections["expert"]["status"] == "done"
    for name in ("heuristic", "draws", "games"):
        assert sections[name]["status"] == "skipped", name
        assert "deck=8" in sections[name]["reason"], name
    assert sections["hands"]["hands"] == 56
    assert sections["lowest"]["deals"] == {}


def test_a_size_of_zero_skips_its_section() -> None:
    sizes = Sizes(deals=0, rounds=0, positions=0, games=0, expert_rounds=0)
    analysis = Analysis(Rules.preset("scat"), 2, sizes, seed=1).run()
    data = analysis.to_dict()
    assert data["sections"]["games"] == {"status": "skipped", "reason": "games 0"}
    assert data["sections"]["expert"]["reason"] == "expert-rounds 0"
    assert data["sections"]["lowest"]["deals"] == {}
    assert data["sections"]["lowest"]["rows"]


def test_every_languages_how_to_play_names_the_strategy_guide_and_the_command() -> None:
    from thirtyone.i18n import LANGUAGES
    from thirtyone.i18n import catalog_json

    for lang in LANGUAGES:
        messages = catalog_json(lang)["messages"]
        assert messages["howto.playing_well"], lang
        assert "docs/strategy.md" in messages["howto.strategy"], lang
        assert "thirtyone analyze" in messages["howto.strategy"], lang


def test_the_pages_how_to_play_ends_with_the_strategy_guide(tmp_path: Path) -> None:
    """howto.js run by Node with the English catalog: its last section is the strategy guide's, a
    sentence of no rule (so no rule's tooltip), after the page's keys, a sentence of no rule either
    (the keys are the page's, not the game's: one line names the keys of four moves); every
    section before them is the rules', each sentence with its rule's id."""
    import shutil
    import subprocess

    from thirtyone.i18n import catalog_json

    node = shutil.which("node")
    if node is None:
        pytest.skip("Node is not installed")
    web = Path(__file__).resolve().parent.parent / "src" / "thirtyone" / "web" / "js"
    shutil.copy(web / "howto.js", tmp_path / "howto.js")
    messages = json.dumps(catalog_json("en")["messages"])
    (tmp_path / "i18n.js").write_text(
        f"const M = {messages};\n"
        "const fill = (text, params) => text.replace(/\\{(\\w+)\\}/g, (_, key) => String(params[key]));\n"
        "export const t = (key, params = {}) => fill(M[key], params);\n"
        "export const tn = (key, count, params = {}) => fill(M[key].other, { count, ...params });\n"
        "export const has = (key) => key in M;\nexport const lang = 'en';\nexport const num = String;\n",
        encoding="utf-8",
    )
    rules = json.dumps(Rules.preset("schwimmen").options())
    script = (
        f"import {{ howToPlay }} from './howto.js';\nconsole.log(JSON.stringify(howToPlay({rules}, 'schwimmen')));\n"
    )
    (tmp_path / "run.mjs").write_text(script, encoding="utf-8")
    sections = json.loads(
        subprocess.run([node, "run.mjs"], cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    )
    english = catalog_json("en")["messages"]
    assert sections[-1] == {"title": english["howto.playing_well"], "lines": [[english["howto.strategy"], None]]}
    assert sections[-2] == {"title": english["howto.keys"], "lines": [[english["howto.keys_widow"], None]]}
    assert all(rule for section in sections[:-2] for _, rule in section["lines"])  # the rules' sentences keep their ids


def test_issue40_each_section_is_named_the_same_way_and_the_players_columns_are_labelled() -> None:
    """Issue 40, item 7: the lowest hand's columns 2 … 9 were players at the table without saying
    so, and a section was named one way when skipped ("Seats and length of play (games): skipped")
    and another when run (its table's title only). Each section run is headed by the name it has
    when skipped, and the columns of one measure are labelled over them (players, own turn)."""
    import io

    from rich.console import Console

    from thirtyone.arena.odds_report import render

    sizes = Sizes(deals=30, rounds=0, positions=0, games=0, expert_rounds=0)
    data = Analysis(Rules.preset("scat"), 4, sizes, seed=1).run().to_dict()
    console = Console(width=100, file=io.StringIO(), record=True, color_system=None)
    console.print(render(data))
    lines = console.export_text().splitlines()
    assert "Dealt hands (hands)" in lines
    assert "The lowest hand (lowest)" in lines
    assert any(line.startswith("Seats and length of play (games): skipped") for line in lines)
    heading = lines.index("The lowest hand (lowest)")
    header = next(i for i in range(heading, len(lines)) if lines[i].split()[:1] == ["value"])
    assert lines[header - 1].split() == ["players"]  # over the columns 2 … 9
    assert lines[header].split() == ["value", *map(str, range(2, 10))]


NO_OTHER_SECTION = ["--deals", "0", "--rounds", "0", "--positions", "0", "--games", "0"]


def test_the_knocks_are_the_judges_by_default_where_it_plays_named_in_the_json_and_the_chart(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    assert (
        main(["analyze", *NO_OTHER_SECTION, "--expert-rounds", "3", "--seed", "5", "--json", "--chart", str(tmp_path)])
        == 0
    )
    data = json.loads(capsys.readouterr().out)
    assert data["sizes"]["expert"] == data["sections"]["expert"]["bot"] == "judge"
    assert data["sections"]["expert"]["rounds"] == 3
    assert "fallback" not in data["sections"]["expert"]
    assert "Knocks of judge (engine), simulated: " in (tmp_path / "knocks-expert.svg").read_text(encoding="utf-8")
    assert Sizes().at_table(Rules.preset("scat"), 4) == (
        Sizes(expert="judge", expert_rounds=JUDGE_ROUNDS["draw"]),
        None,
    )


def test_where_the_judge_does_not_play_the_expert_plays_the_knocks_and_the_report_says_why(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["analyze", *NO_OTHER_SECTION, "--expert-rounds", "1", "--seed", "5", "--preset", "namu"]) == 0
    out = " ".join(capsys.readouterr().out.split())  # as the terminal's width wraps it
    assert (
        f"{FALLBACK} played, not the judge: the judge's weights were made for scat, schwimmen, widow, not namu" in out
    )
    assert f"Knocks of {FALLBACK}, simulated: " in out
    sizes, fallback = Sizes().at_table(Rules.preset("namu"), 4)
    assert (sizes.expert, sizes.expert_rounds) == (FALLBACK, EXPERT_ROUNDS)
    assert "not namu" in str(fallback)


def test_a_named_bot_plays_the_knocks_with_its_own_rounds_and_a_judge_of_ones_own_reads_its_weights_once(
    tmp_path: Path,
) -> None:
    from thirtyone.bots.judge import SHIPPED

    rules = Rules.preset("widow")
    assert Sizes(expert="hard:0.1s").at_table(rules, 3)[0].expert_rounds == EXPERT_ROUNDS
    assert Sizes(expert="expert:8", expert_rounds=7).at_table(rules, 3) == (
        Sizes(expert="expert:8", expert_rounds=7),
        None,
    )
    sizes = Sizes(deals=0, rounds=0, positions=0, games=0, expert_rounds=4, expert=f"judge:{SHIPPED[0]}")
    own = Analysis(rules, 3, sizes, seed=8).run().to_dict()
    shipped = Analysis(rules, 3, replace(sizes, expert="judge"), seed=8).run().to_dict()
    assert own["sections"]["expert"]["bot"] == f"judge:{SHIPPED[0]}"
    assert (
        own["sections"]["expert"]["cells"] == shipped["sections"]["expert"]["cells"]
    )  # the same weights, the same play
