"""The judge's hints in tests, whatever weights ship: the shipped networks' measured value error
(``meta["value_check"]``, :meth:`thirtyone.bots.judge.JudgeBot.cannot_value`) set for the test,
so that a test says whether the judge may show its values instead of reading it from the weights."""

from __future__ import annotations

import pytest

from thirtyone.bots.judge import VALUE_ERROR_BAR
from thirtyone.bots.judge import shipped_judges


def values_checked(monkeypatch: pytest.MonkeyPatch, gap_rmse: float = VALUE_ERROR_BAR / 2) -> None:
    """Every shipped network's values measured ``gap_rmse`` lives from the exact ones (within
    :data:`~thirtyone.bots.judge.VALUE_ERROR_BAR` by default: the judge hints), for this test."""
    for net in shipped_judges():
        monkeypatch.setitem(net.meta, "value_check", {"gap_rmse": gap_rmse, "positions": 100})
