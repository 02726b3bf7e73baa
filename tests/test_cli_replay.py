"""``thirtyone replay FILE [--json]``: output, JSON, one-line errors with exit status 2, and the
records that ``thirtyone simulate --record DIR`` writes (R3.5)."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from rich.cells import cell_len

from cli_helpers import cli_error_line
from thirtyone import Game
from thirtyone import Rules
from thirtyone.cli import main
from thirtyone.record import GameRecord


def played(preset: str | Rules, players: int, seed: int, limit: int | None = None) -> Game:
    """A game of random moves (the first ``limit`` only), of a preset's rules or the ``Rules`` given."""
    game = Game(Rules.preset(preset) if isinstance(preset, str) else preset, players, seed=seed)
    rng = random.Random(seed)
    count = 0
    while not game.is_over and (limit is None or count < limit):
        game.apply(rng.choice(game.legal_actions()))
        count += 1
    return game


def write(path: Path, game: Game, names: list[str] | None = None, **meta: str) -> Path:
    path.write_text(GameRecord.from_game(game, names, **meta).dumps(), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def game() -> Game:
    for seed in range(100):
        game = played("scat", 3, seed)
        if len(game.round_logs) >= 3:
            return game
    raise AssertionError("no game of 3 rounds or more")


def test_replay_prints_rounds_and_standings(tmp_path: Path, game: Game, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "g.toml", game, ["Ann", "Ben", "Cy"], event="club night")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    for result in (log.result for log in game.round_logs):
        assert result is not None
        assert f"Round {result.round} · dealer" in out
        for loss in result.losses:
            assert loss.rule in out
    assert f"Round {len(game.round_logs) + 1}" not in out
    assert "club night" in out
    winner = ["Ann", "Ben", "Cy"][game.winner]
    assert f"Winner: {winner} (seat {game.winner})" in out
    assert "Standings" in out
    assert "eliminated" in out
    assert f"{game.round} round result(s) and {sum(len(log.actions) for log in game.round_logs)} action(s)" in out


def test_replay_shows_every_hand_at_a_showdown(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = played("scat", 2, 1)
    path = write(tmp_path / "g.toml", game)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    for log in game.round_logs:
        assert log.result is not None
        for hand in log.result.hands:
            if hand is not None:
                assert " ".join(card.pretty for card in hand) in out


def test_replay_json(tmp_path: Path, game: Game, capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path / "g.toml", game, ["Ann", "Ben", "Cy"])
    assert main(["replay", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["verified"] is True
    assert data["finished"] is True
    assert data["file"] == str(path)
    assert data["version"] == 3
    assert data["winner"] == game.winner
    assert data["seats"] == ["Ann", "Ben", "Cy"]
    assert len(data["rounds"]) == len(game.round_logs)
    for entry, log in zip(data["rounds"], game.round_logs, strict=True):
        result = log.result
        assert result is not None
        assert (entry["round"], entry["dealer"], entry["end"], entry["knocker"]) == (
            result.round, result.dealer, result.end, result.knocker,
        )  # fmt: skip
        assert entry["actions"] == len(log.actions)
        assert entry["remaining"] == list(result.remaining)
        assert entry["eliminated"] == list(result.eliminated)
        assert [(loss["seat"], loss["lives"], loss["rule"]) for loss in entry["losses"]] == [
            (loss.seat, loss.lives, loss.rule) for loss in result.losses
        ]
        shown = {hand["seat"]: (hand["hand"], hand["value"]) for hand in entry["hands"]}
        for seat, (hand, value) in enumerate(zip(result.hands, result.values, strict=True)):
            if hand is None:
                assert seat not in shown
            else:
                assert shown[seat] == (" ".join(map(str, hand)), value)
    assert [(s["seat"], s["place"]) for s in data["standings"]] == [(s.seat, s.place) for s in game.standings]
    assert data["rules"]["options"]["lives"] == 3


def test_replay_unfinished_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = played("widow", 3, 2, limit=9)
    path = write(tmp_path / "g.toml", game)
    assert main(["replay", str(path)]) == 0
    assert f"Game not finished: round {game.round} in progress, seat {game.current_seat} to move" in (
        capsys.readouterr().out
    )
    assert main(["replay", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["finished"] is False
    assert data["winner"] is None
    assert data["round_in_progress"] == game.round
    assert data["to_move"] == game.current_seat
    assert len(data["rounds"]) == game.round - 1


def test_names_are_not_markup(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = played("scat", 2, 3)
    path = write(tmp_path / "g.toml", game, ["[bold]Ann[/bold]", "B[red]"], comment="[link]x[/link]")
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert "[bold]Ann[/bold]" in out
    assert "B[red]" in out
    assert "[link]x[/link]" in out


def test_half_points_in_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for seed in range(2000):
        game = played("schwimmen", 5, seed)
        if any(v == 30.5 for log in game.round_logs if log.result for v in log.result.values if v is not None):
            break
    path = write(tmp_path / "g.toml", game)
    assert main(["replay", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert 30.5 in [hand["value"] for rnd in data["rounds"] for hand in rnd["hands"]]


# ---------------------------------------------------------------------------------------------- errors


def test_missing_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "nope.toml"
    assert cli_error_line(capsys, ["replay", str(path)]) == f"thirtyone: error: {path}: no such file"


def test_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = cli_error_line(capsys, ["replay", str(tmp_path)])
    assert line == f"thirtyone: error: {tmp_path}: is a directory; give a record file"


def test_not_utf8(tmp_path: Path, game: Game, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "latin1.toml"
    path.write_bytes(GameRecord.from_game(game, ["Jürgen", "B", "C"]).dumps().encode("latin-1"))
    line = cli_error_line(capsys, ["replay", str(path)])
    assert line.startswith(f"thirtyone: error: {path}: not UTF-8 text")


def test_byte_order_mark_is_accepted(tmp_path: Path, game: Game, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bom.toml"
    path.write_bytes(b"\xef\xbb\xbf" + GameRecord.from_game(game).dumps().encode("utf-8"))
    assert main(["replay", str(path)]) == 0


def test_binary_garbage(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "x.toml"
    path.write_bytes(bytes(range(256)))
    assert cli_error_line(capsys, ["replay", str(path)]).startswith(f"thirtyone: error: {path}: not UTF-8")
    path.write_text("\x00\x01 = 2\n", encoding="utf-8")
    assert cli_error_line(capsys, ["replay", str(path)]).startswith(f"thirtyone: error: {path}: not valid TOML")


def test_illegal_action_gives_round_action_and_rule(
    tmp_path: Path, game: Game, capsys: pytest.CaptureFixture[str]
) -> None:
    text = GameRecord.from_game(game).dumps()
    seat, action = game.round_logs[0].actions[0]
    first = f'"{seat}: {action}"'
    assert first in text
    path = tmp_path / "bad.toml"
    path.write_text(text.replace(first, f'"{seat}: discard As"', 1), encoding="utf-8")
    line = cli_error_line(capsys, ["replay", str(path)])
    assert line.startswith(f'thirtyone: error: {path}: round 1, action 1 ("{seat}: discard As"): R4.1: ')


def test_unfinished_record_with_a_result_that_is_wrong(
    tmp_path: Path, game: Game, capsys: pytest.CaptureFixture[str]
) -> None:
    text = GameRecord.from_game(game).dumps().replace("saved_by_r2_6 = false", "saved_by_r2_6 = true", 1)
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    line = cli_error_line(capsys, ["replay", str(path), "--json"])
    assert line == (
        f"thirtyone: error: {path}: round 1: the recorded result differs from the replay: "
        "saved_by_r2_6: the record says true, the replay false"
    )


# ---------------------------------------------------------------------------------------------- simulate --record


@pytest.mark.parametrize(
    ("preset", "players", "bots"),
    [("scat", 3, "basic,random"), ("widow", 4, "random"), ("namu", 2, "basic"), ("schwimmen", 5, "basic,random")],
)
def test_simulate_records_replay(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], preset: str, players: int, bots: str
) -> None:
    folder = tmp_path / "records"
    args = ["simulate", "--games", "4", "--players", str(players), "--bots", bots, "--seed", "9"]
    assert main([*args, "--preset", preset, "--record", str(folder), "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    files = sorted(folder.glob("*.toml"))
    assert [f.name for f in files] == [f"game-{i:06d}.toml" for i in range(1, 5)]
    wins = [0] * players
    rounds = 0
    for path in files:
        record = GameRecord.loads(path.read_text(encoding="utf-8"))
        assert record.event == "thirtyone simulate"
        assert record.rules == Rules.preset(preset)
        assert record.seats[0].endswith("(seat 0)")
        game = record.replay()
        assert game.is_over
        assert record.winner == game.winner
        wins[game.winner] += 1
        rounds += game.round
        assert main(["replay", str(path), "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["winner"] == game.winner
    # The records are the games the statistics counted.
    assert [seat["wins"] for seat in stats["seats"]] == wins
    assert stats["rounds"] == rounds


def test_replay_json_gives_the_version_the_file_was_written_in(
    tmp_path: Path, game: Game, capsys: pytest.CaptureFixture[str]
) -> None:
    text = GameRecord.from_game(game).dumps()
    old = re.sub(r"kind = \"[a-z_]+\", (seats = \[[0-9, ]*\], )?", "", text).replace("version = 3\n", "version = 1\n")
    path = tmp_path / "old.toml"
    path.write_text(old, encoding="utf-8")
    assert main(["replay", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["version"] == 1
    assert all("kind" in loss for entry in data["rounds"] for loss in entry["losses"])  # worked out from the result


def _game_with(rules: Rules, players: int, words: str, limit: int | None = None) -> Game:
    """A game played at random whose record holds ``words`` (a loss's kind, say)."""
    for seed in range(300):
        game = played(rules, players, seed, limit)
        if words in GameRecord.from_game(game).dumps():
            return game
    raise AssertionError(f"no game with {words!r}")


LONG_NAMES = ["Alexandrina", "Bartholomew", "Christopher", "Dorothea", "Evangeline"]


@pytest.mark.parametrize(
    ("penalty", "kind"),
    [("scat", "knocker_alone_lowest"), ("namu_risky", "knocker_not_highest"), ("widow", "knocker_among_lowest")],
)
def test_replay_never_splits_an_option_word_at_80_columns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, penalty: str, kind: str
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    game = _game_with(Rules.preset("scat", knock_penalty=penalty), 5, kind)
    path = write(tmp_path / "g.toml", game, LONG_NAMES)
    assert main(["replay", str(path), "--json"]) == 0
    reasons = [loss["reason"] for entry in json.loads(capsys.readouterr().out)["rounds"] for loss in entry["losses"]]
    words = [word.rstrip(";") for reason in reasons for word in reason.split() if "=" in word]
    assert f"(knock_penalty={penalty})" in words
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    assert max(cell_len(line) for line in out.splitlines()) <= 80
    shown = [word.rstrip(";,") for line in out.splitlines() for word in line.split() if "=" in word]
    assert sorted(word for word in shown if word.startswith("(")) == sorted(words)  # every one whole
    options = [word for word in shown if not word.startswith("(")]  # the rules line's
    assert options == ([] if penalty == "scat" else [f"knock_penalty={penalty}"])
    for name in LONG_NAMES:  # and no name folded to make room
        assert re.search(rf"^ +\d  {name} ", out, re.MULTILINE), name


def test_an_unfinished_game_claims_no_places_and_shows_the_lives_left(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # quit mid-way: one seat out (its place is settled: last), the others still playing, two of them tied
    for seed in range(200):
        game = played(Rules.preset("scat", knock_penalty="namu", min_knock_value=5), 4, seed, limit=60)
        standings = game.standings
        if not game.is_over and sum(s.out for s in standings) == 1 and len({s.place for s in standings}) < 4:
            break
    else:
        raise AssertionError("no unfinished game with a seat out and a tie")
    path = write(tmp_path / "g.toml", game, ["Ann", "Ben", "Cy", "Dee"])
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    tail = out[out.index("Game not finished") :]
    assert "Standings" not in tail
    assert "place" not in tail.replace("4th place", "")  # no place for anyone still playing
    assert "Standing so far" in tail
    grace = Rules.preset("scat").grace_word
    for standing in standings:
        name = ["Ann", "Ben", "Cy", "Dee"][standing.seat]
        if standing.out:
            left = "out, 4th place"
        elif standing.on_grace:
            left = grace
        else:
            left = str(standing.lives)
        assert re.search(rf"│ +{standing.seat} │ {name} +│ {re.escape(left)} +│", tail), (name, left, tail)
    assert main(["replay", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["finished"] is False
    assert [(s["seat"], s["place"]) for s in data["standings"]] == [(s.seat, 4 if s.out else None) for s in standings]


# ---------------------------------------------------------------------- untrusted text (issue 29, item 12)

EVIL_NAMES = ["\u001b]0;PWNED\u0007\u001b[2J", "\u001b[31m", "Bo\u202eb"]
"""Seat names of a shared record that would set the window title and clear the screen, colour the
terminal, and turn the text after them right to left."""
UNSHOWN = ("\u001b", "\u0007", "\u202e", "\u009b", "\u007f")
"""Characters a terminal acts on or hides instead of showing: none may reach it from a record."""


def evil_record(path: Path, game: Game) -> Path:
    return write(path, game, EVIL_NAMES, event="club\u001b[1m night", date="2025\u009b1", comment="one\ntwo\u007f")


def test_item12_replay_shows_a_records_control_sequences_escaped(
    tmp_path: Path, game: Game, capsys: pytest.CaptureFixture[str]
) -> None:
    path = evil_record(tmp_path / "evil.toml", game)
    assert main(["replay", str(path)]) == 0
    out = capsys.readouterr().out
    for char in UNSHOWN:
        assert char not in out, repr(char)
    assert "\\x1b]0;PWNED\\x07\\x1b[2J (seat 0)" in out
    assert "\\x1b[31m (seat 1)" in out
    assert "Bo\\u202eb" in out
    assert "club\\x1b[1m night" in out
    assert "comment: one\\ntwo\\x7f" in out
    assert "2025\\x9b1" in out


def test_item12_replay_json_escapes_them_and_keeps_the_same_data(
    tmp_path: Path, game: Game, capsys: pytest.CaptureFixture[str]
) -> None:
    path = evil_record(tmp_path / "evil.toml", game)
    assert main(["replay", str(path), "--json"]) == 0
    out = capsys.readouterr().out
    for char in UNSHOWN:
        assert char not in out, repr(char)
    data = json.loads(out)
    assert data["seats"] == EVIL_NAMES
    assert data["comment"] == "one\ntwo\u007f"
    assert data["standings"][0]["name"] in EVIL_NAMES


def test_item12_a_record_error_never_writes_the_records_text_raw(
    tmp_path: Path, game: Game, capsys: pytest.CaptureFixture[str]
) -> None:
    text = GameRecord.from_game(game, EVIL_NAMES).dumps()
    first = next(line for line in text.splitlines() if line.startswith('    "'))  # the first action
    broken = text.replace(first, '    "1: discard \\u001b]0;PWNED\\u0007\\u202e",', 1)  # TOML escapes
    path = tmp_path / "broken.toml"
    path.write_text(broken, encoding="utf-8")
    line = cli_error_line(capsys, ["replay", str(path)])
    for char in UNSHOWN:
        assert char not in line, repr(char)


def test_item14_replay_piped_at_80_columns_never_breaks_a_name_from_its_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Piped, the lines wrapped between words anywhere: "Cy (seat" at the end of a line and "2)"
    on the next; now a line breaks only between phrases (", ", " · ")."""
    from thirtyone.bots import make_bot
    from thirtyone.bots.runner import play_game

    monkeypatch.setenv("COLUMNS", "80")
    names = ["Annabelle", "Bartholomew", "Cy", "Dee", "Eve"]
    game = play_game(Rules.preset("schwimmen"), [make_bot("basic", seat) for seat in range(5)], seed=1)
    path = write(tmp_path / "five.toml", game, names, event="club night", comment="a long comment that goes on")
    assert main(["replay", str(path)]) == 0
    lines = capsys.readouterr().out.split("\n")
    assert max(cell_len(line) for line in lines) <= 80
    text = "\n".join(lines)
    for seat, name in enumerate(names):
        assert f"{name} (seat {seat})" in text  # each whole on one line
    assert not [line for line in lines if re.search(r"\(seat$|^\d+\)", line.strip())]
    counts = [line for line in lines if " turns," in line]
    assert counts
    assert all(re.search(r"\d+ turns, \d+ actions", line) for line in counts), counts
    assert any("knocked; lowest hand" in line for line in lines)  # the header "lives after" gave way


def test_issue40_replay_at_80_columns_keeps_names_whole_and_heads_the_notes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 40, item 7: a simulated game's round where a seat went out ("lowest hand;
    eliminated") wrapped the names "heuristic (seat 1)" at 80 columns, and the notes had no header."""
    monkeypatch.setenv("COLUMNS", "80")
    assert main(["simulate", "--players", "4", "--bots", "basic,heuristic", "--games", "1", "--seed", "7",
                 "--record", str(tmp_path / "games")]) == 0  # fmt: skip
    capsys.readouterr()
    assert main(["replay", str(tmp_path / "games" / "game-000001.toml")]) == 0
    lines = capsys.readouterr().out.split("\n")
    assert any("eliminated" in line for line in lines)
    assert not [line for line in lines if re.search(r"\(seat$|^\d+\)", line.strip())], "\n".join(lines)
    headers = [line for line in lines if line.lstrip().startswith("seat  player")]
    assert headers
    assert all(line.split()[-1] == "notes" for line in headers), headers
