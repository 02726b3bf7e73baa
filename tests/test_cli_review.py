"""``thirtyone review`` stopped by SIGTERM reports the decisions valued so far, as Ctrl-C does
(the review itself: tests/test_review.py)."""

from __future__ import annotations

import json
import signal
from pathlib import Path
from typing import Any

import pytest

from thirtyone.bots.expert import ExpertBot
from thirtyone.cli import main


@pytest.mark.parametrize("as_json", [True, False], ids=["json", "text"])
def test_sigterm_prints_the_decisions_valued_so_far_as_ctrl_c_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], as_json: bool
) -> None:
    """SIGTERM (``timeout``, ``kill``) ended a review with nothing printed, and the partial review
    then said "(interrupted)", Ctrl-C's word (issue 42)."""
    args = ["simulate", "--bots", "random", "--players", "3", "--games", "1", "--lives", "1", "--seed", "2"]
    assert main([*args, "--record", str(tmp_path / "records")]) == 0
    capsys.readouterr()
    analyse = ExpertBot.analyse
    calls: list[int] = []

    def terminated(self: ExpertBot, *args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 5:
            signal.raise_signal(signal.SIGTERM)  # the real signal, through the handler review sets
        return analyse(self, *args, **kwargs)

    def unhandled(_number: int, _frame: object) -> None:
        raise AssertionError("review set no handler for SIGTERM")

    monkeypatch.setattr(ExpertBot, "analyse", terminated)
    record = tmp_path / "records" / "game-000001.toml"
    before = signal.signal(signal.SIGTERM, unhandled)  # not pytest's death, should review set none
    try:
        json_flag = ["--json"] if as_json else []
        status = main(["review", str(record), "--valuer", "expert", "--budget", "20:engine", *json_flag])
        assert signal.getsignal(signal.SIGTERM) is unhandled, "the handler before is restored"
    finally:
        signal.signal(signal.SIGTERM, before)
    captured = capsys.readouterr()
    assert captured.err == "thirtyone: terminated: the review above is partial\n"
    assert status == 143
    if not as_json:
        text = " ".join(captured.out.split())
        assert "PARTIAL REVIEW: " in text
        assert "decisions valued (stopped)." in text
        assert "interrupted" not in text, "a terminated review is not said to be interrupted"
        return
    data = json.loads(captured.out)
    assert data["partial"] is True
    assert 0 < len(data["decisions"]) < data["total"]
