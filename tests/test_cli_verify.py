"""``thirtyone verify RECORD``: a record of a committed game verifies (exit 0); a record whose deck,
salt, commitment or reshuffle was changed, one without a salt or commitments, a file that is not
UTF-8 and a missing file are each a one-line error naming what is wrong (exit 2); a commitment
that does not match is named (the salt chain's, not blamed on a salt; or a round's), and the line
is followed by both hashes in full and a caret under the first differing hex digit."""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from cli_helpers import cli_error_line
from support.server import committed_game
from support.server import committed_record
from thirtyone import Rules
from thirtyone.cli import main
from thirtyone.fairness import SaltChain
from thirtyone.record import GameRecord
from thirtyone.record import RoundRecord
from thirtyone.record import deal_commitment


@pytest.fixture(scope="module")
def record() -> GameRecord:
    """A finished committed game of at least three rounds, one of them after the first with a reshuffle."""
    for seed in range(200):
        game, chance = committed_game(Rules.preset("scat", lives=2), 2, random.Random(seed), force_reshuffle=True)
        made = committed_record(game, chance)
        if len(made.rounds) >= 3 and made.rounds[0].reshuffles:
            return made
    raise AssertionError("no committed game of 3 rounds with a reshuffle in round 1")


@pytest.fixture(scope="module")
def chained() -> GameRecord:
    """A finished game dealt from a salt chain and a seat's seed (as thirtyone serve deals), of at
    least three rounds."""
    for seed in range(200):
        chain = SaltChain("ab" * 32, 64)
        game, chance = committed_game(
            Rules.preset("scat", lives=2), 2, random.Random(seed), chain=chain, seeds=["11" * 16, None]
        )
        made = committed_record(game, chance)
        if len(made.rounds) >= 3:
            return made
    raise AssertionError("no chained game of 3 rounds")


def verify_error(capsys: pytest.CaptureFixture[str], args: list[str]) -> tuple[str, list[str]]:
    """Run ``thirtyone verify``, check that it fails as the CLI must (exit 2, nothing on stdout,
    no traceback, a ``thirtyone: error:`` line, followed by nothing or by the two hashes and the
    caret) and return the error line and the lines after it."""
    assert main(args) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "Traceback" not in captured.err
    line, *rest = captured.err.rstrip("\n").split("\n")
    assert line.startswith("thirtyone: error: ")
    assert len(rest) in (0, 3), captured.err
    return line, rest


def shown_hashes(rest: list[str]) -> tuple[str, str, int]:
    """The recorded and computed hashes below an error, and the index of the digit the caret marks."""
    recorded, computed, caret = rest
    assert recorded.startswith("  recorded  ")
    assert computed.startswith("  computed  ")
    assert caret.strip() == "^"
    assert max(map(len, rest)) <= 80  # fits a terminal
    return recorded[12:], computed[12:], caret.index("^") - 12


def write(path: Path, record: GameRecord) -> Path:
    path.write_text(record.dumps(), encoding="utf-8")
    return path


def changed(record: GameRecord, number: int, change: Callable[[RoundRecord], RoundRecord]) -> GameRecord:
    """``record`` with round ``number`` (from 1) changed by ``change``."""
    rounds = list(record.rounds)
    rounds[number - 1] = change(rounds[number - 1])
    return dataclasses.replace(record, rounds=tuple(rounds))


def test_a_committed_record_verifies(tmp_path: Path, capsys: pytest.CaptureFixture[str], record: GameRecord) -> None:
    path = write(tmp_path / "game.toml", record)
    assert main(["verify", str(path)]) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    rounds = len(record.rounds)
    assert re.fullmatch(
        rf"verified: {rounds} rounds: every deck order and salt match the commitment published before the deal, "
        rf"and all {record.action_count} actions replay \(seat {record.winner} won\)\n",  # default names, once
        captured.out,
    ), captured.out


def test_a_record_with_names_names_the_winner_with_the_seat(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], record: GameRecord
) -> None:
    seats = ("Ada", "Ben")
    path = write(tmp_path / "game.toml", dataclasses.replace(record, seats=seats))
    assert main(["verify", str(path)]) == 0
    assert capsys.readouterr().out.endswith(f"actions replay ({seats[record.winner]} (seat {record.winner}) won)\n")


def _swap_two_cards(rnd: RoundRecord) -> RoundRecord:
    deck = list(rnd.deck)
    deck[-1], deck[-2] = deck[-2], deck[-1]  # still a whole deck: only the commitment can tell
    return dataclasses.replace(rnd, deck=tuple(deck))


def _other_hex(text: str | None) -> str:
    assert text is not None
    return ("1" if text[0] != "1" else "2") + text[1:]


@pytest.mark.parametrize(
    ("number", "change", "words"),
    [
        (2, _swap_two_cards, "round 2: the commitment does not match the deck order and the salt"),
        (3, lambda rnd: dataclasses.replace(rnd, salt=_other_hex(rnd.salt)), "round 3: the commitment does not match"),
        (
            2,
            lambda rnd: dataclasses.replace(rnd, commitment=_other_hex(rnd.commitment)),
            "round 2: the commitment does not match",
        ),
        (2, lambda rnd: dataclasses.replace(rnd, salt=None), "round 2: the salt is missing, though the round ended"),
        (
            1,
            lambda rnd: dataclasses.replace(rnd, reshuffles=(rnd.reshuffles[0][1:] + rnd.reshuffles[0][:1],)),
            "round 1: reshuffle 1 is not the order the round's salt gives",
        ),
    ],
    ids=["deck-card", "salt", "commitment", "missing-salt", "reshuffle"],
)
def test_a_tampered_record_is_refused_naming_the_round(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    record: GameRecord,
    number: int,
    change: Callable[[RoundRecord], RoundRecord],
    words: str,
) -> None:
    path = write(tmp_path / "tampered.toml", changed(record, number, change))
    line, rest = verify_error(capsys, ["verify", str(path)])
    assert line.startswith(f"thirtyone: error: {path}: "), line
    assert words in line, line
    if "commitment does not match" in words:
        assert "the commitment, the deck order or the salt was changed (one hash cannot tell which)" in line
        tampered = change(record.rounds[number - 1])
        assert tampered.salt is not None
        recorded, computed, _ = shown_hashes(rest)
        assert (recorded, computed) == (tampered.commitment, deal_commitment(tampered.salt, tampered.deck))
    else:
        assert rest == []


def test_a_record_without_commitments_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], record: GameRecord
) -> None:
    plain = dataclasses.replace(
        record, rounds=tuple(dataclasses.replace(rnd, salt=None, commitment=None) for rnd in record.rounds)
    )
    path = write(tmp_path / "plain.toml", plain)
    assert "commitment" not in path.read_text(encoding="utf-8")
    line = cli_error_line(capsys, ["verify", str(path)])
    assert "nothing to verify: no round was dealt with a published commitment" in line, line
    assert line.endswith(f"`thirtyone replay {path}` checks its moves"), line  # what to do instead


def test_a_round_without_its_commitment_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], record: GameRecord
) -> None:
    text = record.dumps()
    line = f'commitment = "{record.rounds[1].commitment}"\n'
    assert text.count(line) == 1
    path = tmp_path / "no-commitment.toml"
    path.write_text(text.replace(line, ""), encoding="utf-8")
    line = cli_error_line(capsys, ["verify", str(path)])
    assert "round 2: a salt without a commitment" in line, line


def test_a_record_whose_actions_do_not_replay_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], record: GameRecord
) -> None:
    # the shuffles verify, but the first action of a round after the first is given to the wrong
    # seat (a round that ended on its deal, R5.2, has no action to move: the next one is taken)
    number = next(rnd.round for rnd in record.rounds[1:] if rnd.actions)

    def other_seat(rnd: RoundRecord) -> RoundRecord:
        (seat, action), *rest = rnd.actions
        return dataclasses.replace(rnd, actions=((1 - seat, action), *rest))

    path = write(tmp_path / "actions.toml", changed(record, number, other_seat))
    line = cli_error_line(capsys, ["verify", str(path)])
    assert f"round {number}" in line, line


def test_a_file_that_is_not_utf8_or_missing_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b'seats = ["A\xff\xfe"]\n')
    assert "not UTF-8" in cli_error_line(capsys, ["verify", str(binary)])
    missing = tmp_path / "missing.toml"
    assert cli_error_line(capsys, ["verify", str(missing)]) == f"thirtyone: error: {missing}: no such file"


@pytest.mark.parametrize("digit", [0, 20, 63])
def test_a_changed_commitment_shows_both_hashes_in_full_with_a_caret_under_the_first_difference(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], record: GameRecord, digit: int
) -> None:
    published = record.rounds[1].commitment
    assert published is not None
    changed_digit = "0" if published[digit] != "0" else "1"
    tampered = published[:digit] + changed_digit + published[digit + 1 :]
    path = write(tmp_path / "end.toml", changed(record, 2, lambda rnd: dataclasses.replace(rnd, commitment=tampered)))
    line, rest = verify_error(capsys, ["verify", str(path)])
    assert line.startswith(f"thirtyone: error: {path}: round 2: the commitment does not match")
    assert f"they first differ at hex digit {digit + 1} of 64" in line
    assert shown_hashes(rest) == (tampered, published, digit)  # in full, the differing digit marked


@pytest.mark.parametrize("digit", [0, 20, 63])
def test_a_changed_chain_commitment_is_named_not_blamed_on_the_salt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], chained: GameRecord, digit: int
) -> None:
    fairness = chained.fairness
    assert fairness is not None
    path = write(tmp_path / "chained.toml", chained)
    assert main(["verify", str(path)]) == 0
    capsys.readouterr()
    published = fairness.commitment
    tampered = published[:digit] + ("0" if published[digit] != "0" else "1") + published[digit + 1 :]
    record = dataclasses.replace(chained, fairness=dataclasses.replace(fairness, commitment=tampered))
    path = write(tmp_path / "tampered.toml", record)
    line, rest = verify_error(capsys, ["verify", str(path)])
    assert line.startswith(f"thirtyone: error: {path}: the commitment in [fairness] is not the one the salts")
    assert "so the commitment was changed" in line
    assert "salt was changed" not in line
    assert f"they first differ at hex digit {digit + 1} of 64" in line
    assert shown_hashes(rest) == (tampered, published, digit)


def test_a_changed_chain_salt_is_still_blamed_on_the_salt(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], chained: GameRecord
) -> None:
    path = write(
        tmp_path / "salt.toml", changed(chained, 2, lambda rnd: dataclasses.replace(rnd, salt=_other_hex(rnd.salt)))
    )
    line, rest = verify_error(capsys, ["verify", str(path)])
    assert "round 2: the salt" in line
    assert "the salt was changed" in line
    assert rest == []


# ---------------------------------------------------------------------- untrusted text (issue 29, item 12)

EVIL = "\u001b]0;PWNED\u0007\u001b[2J\u202e"
"""A name or a value that would set the window title, clear the screen and turn the line around."""


def test_item12_verify_shows_a_records_names_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], chained: GameRecord
) -> None:
    path = write(tmp_path / "evil.toml", dataclasses.replace(chained, seats=(EVIL, EVIL + "2")))
    assert main(["verify", str(path)]) == 0
    captured = capsys.readouterr()
    for char in "\u001b\u0007\u202e":
        assert char not in captured.out + captured.err
    assert "\\x1b]0;PWNED\\x07\\x1b[2J\\u202e" in captured.out


def test_item12_a_seen_file_that_does_not_belong_is_named_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], chained: GameRecord
) -> None:
    path = write(tmp_path / "chained.toml", chained)
    seen = tmp_path / "seen.json"
    seen.write_text(
        json.dumps({"format": "thirtyone-seen", "version": 1, "table": EVIL, "commitment": EVIL}), encoding="utf-8"
    )
    line = cli_error_line(capsys, ["verify", str(path), "--seen", str(seen)])
    for char in "\u001b\u0007\u202e":
        assert char not in line
    assert "saw the commitment \\x1b]0;PWNED\\x07" in line


def test_item14_a_seen_file_that_is_not_text_must_be_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], chained: GameRecord
) -> None:
    path = write(tmp_path / "chained.toml", chained)
    garbage = tmp_path / "garbage"
    garbage.write_bytes(b"\xff\xfe\x00garbage")
    line = cli_error_line(capsys, ["verify", str(path), "--seen", str(garbage)])
    assert "it is JSON" not in line
    assert line == (
        f"thirtyone: error: {garbage}: not UTF-8 text (bad byte at offset 0); give the file your table page offered "
        "('Download what this page saw'): it must be JSON"
    )


def test_a_seen_file_nested_too_deeply_is_called_so_not_not_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], chained: GameRecord
) -> None:
    """JSON nested deeper than Python's parser reads is JSON: the line says it is too deep."""
    path = write(tmp_path / "chained.toml", chained)
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    line = cli_error_line(capsys, ["verify", str(path), "--seen", str(deep)])
    assert line == (
        f"thirtyone: error: {deep}: JSON nested too deeply to read: give the file your table page offered "
        "('Download what this page saw')"
    )
